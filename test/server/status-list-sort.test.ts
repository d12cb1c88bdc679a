// The list's order (http/status-list.ts), held to its rule written plainly: the
// key, in the query's direction; checks that sort alike by name then id; unknowns
// last. Over seeded random statuses with ties and unknowns in every key.
import { describe, expect, it } from 'vitest';
import { CheckStatusesQuerySchema, type CheckStatus } from '../../src/api/schemas.js';
import { inOrderOf, sortStatuses } from '../../src/server/http/status-list.js';
import { sampleStatus } from '../helpers/samples.js';

function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const STATUSES = ['passing', 'unknown', 'degraded', 'failing'] as const;
const SEVERITY = { passing: 0, unknown: 1, degraded: 2, failing: 3 } as const;

function statuses(n: number, rnd: () => number): CheckStatus[] {
  // Few distinct values, so that ties are common; about one in six unknown.
  const pick = <T>(values: readonly T[]) => values[Math.floor(rnd() * values.length)]!;
  const maybe = <T>(value: T) => (rnd() < 0.17 ? null : value);
  return Array.from({ length: n }, (_, i) => {
    const at = maybe(Date.parse('2026-11-23T10:00:00.000Z') + Math.floor(rnd() * 5) * 1_000);
    return sampleStatus(`c${String(Math.floor(rnd() * n)).padStart(4, '0')}-${i}`, {
      checkName: pick(['Alpha', 'beta', 'Gamma', 'delta']),
      status: pick(STATUSES),
      availability: { percentage: maybe(pick([99.5, 100, 87.125])), period: '24h' },
      performance: {
        averageResponseTime: maybe(pick([120, 80.25, 300])),
        p95ResponseTime: null,
        trend: 'stable',
      },
      lastExecution:
        at === null
          ? null
          : { timestamp: new Date(at).toISOString(), status: 'success', responseTime: 1, location: 'eu' },
    });
  });
}

/** The rule, plainly. */
function reference(items: CheckStatus[], sortBy: string, asc: boolean, place: Map<string, number>) {
  const key = (s: CheckStatus): number | null => {
    if (sortBy === 'status') return SEVERITY[s.status];
    if (sortBy === 'availability') return s.availability.percentage;
    if (sortBy === 'responseTime') return s.performance.averageResponseTime;
    return s.lastExecution ? Date.parse(s.lastExecution.timestamp) : null;
  };
  return [...items].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    const tie = place.get(a.checkId)! - place.get(b.checkId)!;
    if (ka === null || kb === null) return ka === kb ? tie : ka === null ? 1 : -1;
    return ka === kb ? tie : (ka < kb ? -1 : 1) * (asc ? 1 : -1);
  });
}

describe('sortStatuses', () => {
  const rnd = random(3);
  const items = statuses(500, rnd);
  const collate = new Intl.Collator().compare;
  const byName = [...items].sort(
    (a, b) => collate(a.checkName, b.checkName) || collate(a.checkId, b.checkId),
  );
  const place = new Map(byName.map((s, i) => [s.checkId, i]));

  it.each(
    ['status', 'availability', 'responseTime', 'lastExecution'].flatMap((sortBy) =>
      ['asc', 'desc'].map((sortOrder) => ({ sortBy, sortOrder })),
    ),
  )('by $sortBy $sortOrder: the key, then name and id, unknowns last', ({ sortBy, sortOrder }) => {
    const q = CheckStatusesQuerySchema.parse({ sortBy, sortOrder });
    const expected = reference(items, sortBy, sortOrder === 'asc', place).map((s) => s.checkId);
    expect(sortStatuses(items, q, place).map((s) => s.checkId)).toEqual(expected);
    // Without the account's name order (the places made from the statuses themselves), the same.
    expect(sortStatuses(items, q).map((s) => s.checkId)).toEqual(expected);
  });

  it('sorts the same from the last answer’s order, with checks moved, gone and new since', () => {
    const q = CheckStatusesQuerySchema.parse({ sortBy: 'lastExecution' });
    const previous = sortStatuses(items.slice(0, 450), q, place);
    // Since then: every tenth check ran again (now the newest), ten left the list, fifty joined.
    const later = '2026-11-23T11:00:00.000Z';
    const now = items
      .slice(10)
      .map((s, i) =>
        i % 10 === 0 && s.lastExecution
          ? { ...s, lastExecution: { ...s.lastExecution, timestamp: later } }
          : s,
      );
    const start = inOrderOf(now, previous);
    expect(new Set(start.map((s) => s.checkId))).toEqual(new Set(now.map((s) => s.checkId)));
    expect(start.slice(-50).map((s) => s.checkId)).toEqual(items.slice(450).map((s) => s.checkId));
    expect(sortStatuses(start, q, place).map((s) => s.checkId)).toEqual(
      reference(now, 'lastExecution', false, place).map((s) => s.checkId),
    );
  });
});

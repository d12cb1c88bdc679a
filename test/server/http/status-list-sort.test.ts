// The list's order (http/status-list.ts), held to its rule written plainly: the
// key, in the query's direction; checks that sort alike by name then id; unknowns
// last. Over seeded random statuses with ties and unknowns in every key.
import { describe, expect, it } from 'vitest';
import { CheckStatusesQuerySchema, type CheckStatus } from '../../../src/api/schemas/index.js';
import { AccountConfigSchema } from '../../../src/server/config/schema.js';
import { buildList, filterStatuses, nameOrder, sortStatuses } from '../../../src/server/http/status-list.js';
import { sampleStatus } from '../../helpers/samples.js';

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
  const key = (s: CheckStatus): number | string | null => {
    if (sortBy === 'name') return s.checkName.toLowerCase();
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
});

describe('buildList', () => {
  const account = AccountConfigSchema.parse({
    id: '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b',
    apiKeys: ['k'.repeat(16)],
    locations: [{ id: 'eu', name: 'Frankfurt', region: 'eu-central-1' }],
  });
  const rnd = random(11);
  const first = statuses(400, rnd);
  const checks = first.map((s) => ({
    id: s.checkId,
    name: s.checkName,
    type: 'api',
    target: 'http://127.0.0.1:9/',
    frequency: '60s',
    locations: ['eu'],
  }));
  const configured = AccountConfigSchema.parse({ ...account, checks });
  const place = nameOrder(configured);

  it.each([
    {},
    { sortBy: 'name' },
    { sortBy: 'status', sortOrder: 'asc' },
    { sortBy: 'availability' },
    { sortBy: 'responseTime', status: 'passing' },
    { sortBy: 'lastExecution', availabilityMax: '99.9' },
  ])('moved from the last answer, the same as built afresh: %j', (query) => {
    const q = CheckStatusesQuerySchema.parse(query);
    let all = first;
    let built = buildList(all, q, configured);
    for (let round = 0; round < 20; round++) {
      // Since the last answer: some statuses replaced (a result, a warmer's pass), others kept as they were.
      const fresh = statuses(all.length, rnd);
      all = all.map((s, i) =>
        rnd() < 0.1 ? { ...fresh[i]!, checkId: s.checkId, checkName: s.checkName } : s,
      );
      built = buildList(all, q, configured, built);
      const afresh = buildList(all, q, configured);
      expect(built.chosen).toEqual(afresh.chosen);
      expect(built.summary).toEqual(afresh.summary);
      const expected = reference(
        filterStatuses(all, q),
        q.sortBy,
        (q.sortOrder ?? (q.sortBy === 'name' ? 'asc' : 'desc')) === 'asc',
        place as Map<string, number>,
      );
      expect(built.chosen.map((s) => s.checkId)).toEqual(expected.map((s) => s.checkId));
    }
  });

  it('builds afresh from an answer of another config (a reload)', () => {
    const q = CheckStatusesQuerySchema.parse({});
    const before = buildList(first, q, configured);
    const reloaded = AccountConfigSchema.parse({ ...account, checks: checks.slice(0, 300) });
    const after = buildList(first.slice(0, 300), q, reloaded, before);
    expect(after.chosen).toEqual(buildList(first.slice(0, 300), q, reloaded).chosen);
    expect(after.chosen).toHaveLength(300);
  });
});

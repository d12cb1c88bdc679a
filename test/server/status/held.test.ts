// A held status keeps its identity while neither it nor its hold moves (status/held.ts): the
// incremental list build skips statuses that are the same object as at its last build.
import { describe, expect, it } from 'vitest';
import type { CheckStatus } from '../../../src/api/schemas/index.js';
import { withLocationHolds } from '../../../src/server/status/location-held.js';
import { buildList } from '../../../src/server/http/status-list.js';
import { CheckStatusesQuerySchema } from '../../../src/api/schemas/index.js';
import { sampleStatus } from '../../helpers/samples.js';

const failingAt = (id: string, location: string): CheckStatus => {
  const s = sampleStatus(id);
  return { ...s, status: 'failing', locations: [{ ...s.locations[0]!, id: location, status: 'failing' }] };
};

const outage = (outageId: string) => (l: string) =>
  l === 'sg' ? { locationId: 'sg', name: `Singapore ${outageId}`, since: 1_000 } : undefined;

describe('withHeldBy', () => {
  const statuses = [failingAt('a', 'sg'), failingAt('b', 'fra'), sampleStatus('c')];

  it('gives the same held object for the same status and hold, build after build', () => {
    const first = withLocationHolds(statuses, outage('o1'));
    const second = withLocationHolds(statuses, outage('o1'));
    expect(first[0]!.heldBy).toMatchObject({ kind: 'location', id: 'sg' });
    expect(second[0]).toBe(first[0]);
    // Not held: the status itself, as before.
    expect(first[1]).toBe(statuses[1]);
    expect(first[2]).toBe(statuses[2]);
  });

  it('gives a new object when the hold moves, or when the status was replaced', () => {
    const first = withLocationHolds(statuses, outage('o1'));
    const renamed = withLocationHolds(statuses, outage('o2'));
    expect(renamed[0]).not.toBe(first[0]);
    expect(renamed[0]!.heldBy?.name).toBe('Singapore o2');
    const replaced = [failingAt('a', 'sg'), ...statuses.slice(1)];
    expect(withLocationHolds(replaced, outage('o2'))[0]).not.toBe(renamed[0]);
  });

  it('lets a list built again from held statuses reuse its keyed order', () => {
    const account = { id: 'acc', checks: statuses.map((s) => ({ id: s.checkId, name: s.checkName })) };
    const q = CheckStatusesQuerySchema.parse({});
    const cfg = account as unknown as Parameters<typeof buildList>[2];
    const first = buildList(withLocationHolds(statuses, outage('o1')), q, cfg);
    const second = buildList(withLocationHolds(statuses, outage('o1')), q, cfg, first);
    // Nothing moved: the keyed order is the previous build's own array, not one sorted again.
    expect(second.basis.keyed).toBe(first.basis.keyed);
    expect(second.chosen.map((s) => s.checkId)).toEqual(first.chosen.map((s) => s.checkId));
  });
});

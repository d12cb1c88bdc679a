// A status with its `heldBy` (location-held.ts, dependency-held.ts), built once per status
// and hold. The lists are built incrementally (http/status-list.ts): a status object that is
// the same as at the last build is skipped, so a held status must stay the same object
// while neither it nor its hold moved. A new copy at every build made each held status look
// replaced: with a location of 2,100 checks down, every statuses request and every judging
// keyed and merged them all again (BENCHMARKS.md, "one location failing").
import type { CheckStatus, HeldBy } from '../../api/schemas/index.js';

const built = new WeakMap<CheckStatus, { key: string; held: CheckStatus }>();

/** The status held by `heldBy`: the object of the last call while the status and the hold are the same. */
export function withHeldBy(status: CheckStatus, heldBy: HeldBy): CheckStatus {
  const key = `${heldBy.kind}\0${heldBy.id}\0${heldBy.name}\0${heldBy.since}\0${heldBy.location ?? ''}`;
  const last = built.get(status);
  if (last?.key === key) return last.held;
  const held = { ...status, heldBy };
  built.set(status, { key, held });
  return held;
}

// A status with its `heldBy` (location-held.ts, dependency-held.ts), built once per status
// and hold. The lists are built incrementally (http/status-list.ts): a status object that is
// the same as at the last build is skipped, so a held status must stay the same object
// while neither it nor its hold moved. A new copy at every build made each held status look
// replaced: with a location of 2,100 checks down, every statuses request and every judging
// keyed and merged them all again (BENCHMARKS.md, "one location failing").
import type { CheckStatus, HeldBy } from '../../api/schemas/index.js';

const built = new WeakMap<CheckStatus, { key: string; held: CheckStatus }>();

/** `key` names the hold (kind, id, name, since, location): `heldBy` is built only when it is new. */
export function withHeldBy(status: CheckStatus, key: string, heldBy: () => HeldBy): CheckStatus {
  const last = built.get(status);
  if (last?.key === key) return last.held;
  const held = { ...status, heldBy: heldBy() };
  built.set(status, { key, held });
  return held;
}

/** The key of a hold for withHeldBy. */
export const holdKey = (
  kind: HeldBy['kind'],
  id: string,
  name: string,
  since: number | string,
  location: string | null,
) => `${kind}\0${id}\0${name}\0${since}\0${location ?? ''}`;

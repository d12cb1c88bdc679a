// The board's record of checks (id -> status) and what the store knows about the
// record it holds (kept beside it in the state, as `checksInfo`): its size, the
// most locations of any check, and which checks differ from the record it was
// made from. With 10,000 checks a poll that changes
// a few of them should cost a few of them: counting keys, finding the widest
// location list and sorting the board again each cost milliseconds per record.
import type { CheckStatus } from '../api/schemas/index.js';
import { sameJson } from '../domain/equal.js';

export type Checks = Record<string, CheckStatus>;

export interface RecordInfo {
  size: number;
  maxLocations: number;
  /** The record this one was made from, when both hold the same checks (by id). */
  base?: Checks | undefined;
  /** The ids whose status differs from `base`. */
  changed?: readonly string[] | undefined;
}

export const EMPTY_INFO: RecordInfo = { size: 0, maxLocations: 0 };

export interface Merged {
  checks: Checks;
  info: RecordInfo;
  turned: Record<string, number>;
  newlyFailing: string[];
}

/**
 * A poll's statuses merged into the previous ones: an equal status keeps its old
 * object, and when nothing changed at all the old record itself is returned.
 * Checks that turn failing are stamped in `turned` (not on the first load).
 */
export function mergeStatuses(
  previous: Checks,
  before: RecordInfo,
  list: readonly CheckStatus[],
  turnedBefore: Record<string, number>,
  at: number,
  firstLoad: boolean,
): Merged {
  const same = new Uint8Array(list.length);
  let turned = turnedBefore;
  const newlyFailing: string[] = [];
  let changes = 0;
  let added = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    const old = previous[c.checkId];
    if (old === undefined) added++;
    if (old === c || (old !== undefined && sameJson(old, c))) {
      same[i] = 1;
      continue;
    }
    changes++;
    if (c.status === 'failing' && old?.status !== 'failing' && !firstLoad) {
      if (turned === turnedBefore) turned = { ...turnedBefore };
      turned[c.checkId] = at;
      newlyFailing.push(c.checkId);
    }
    if (c.status !== 'failing' && turned[c.checkId] !== undefined) {
      if (turned === turnedBefore) turned = { ...turnedBefore };
      delete turned[c.checkId];
    }
  }
  if (changes === 0 && added === 0 && list.length === before.size)
    return { checks: previous, info: before, turned, newlyFailing };
  const checks: Checks = {};
  const changed: string[] = [];
  let size = 0;
  let maxLocations = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (checks[c.checkId] === undefined) size++;
    const kept = same[i] ? previous[c.checkId]! : c;
    checks[c.checkId] = kept;
    if (!same[i]) changed.push(c.checkId);
    maxLocations = Math.max(maxLocations, kept.locations.length);
  }
  const sameIds = added === 0 && size === before.size;
  // One step back only (the new info names the previous record, not its info):
  // a chain of bases would keep every record ever polled.
  const info: RecordInfo = { size, maxLocations, ...(sameIds ? { base: previous, changed } : {}) };
  // A check that left the list takes its highlight with it (a wall runs for days).
  if (!sameIds && Object.keys(turned).some((id) => checks[id] === undefined))
    turned = Object.fromEntries(Object.entries(turned).filter(([id]) => checks[id] !== undefined));
  return { checks, info, turned, newlyFailing };
}

/**
 * The whole list again from a poll that brought only what changed: the previous
 * checks (the very objects), the changed ones in their place or added, the
 * removed ones left out; mergeStatuses then keeps whatever is equal.
 */
export function patchedList(
  previous: Checks,
  changed: readonly CheckStatus[],
  removed: readonly string[],
): CheckStatus[] {
  const fresh = new Map(changed.map((c) => [c.checkId, c]));
  const gone = new Set(removed);
  const list: CheckStatus[] = [];
  for (const id in previous) {
    if (gone.has(id)) continue;
    list.push(fresh.get(id) ?? previous[id]!);
    fresh.delete(id);
  }
  for (const c of fresh.values()) list.push(c);
  return list;
}

// One turn of the warmer (warmer.ts holds its timer): keeps the default period's
// statuses ready so the list finds them so.
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { checkKey } from '../../domain/keys.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import { LIST_PERIOD, type StatusCache } from './cache.js';
import type { StatusReads } from './reads.js';

// The warmer gives the event loop back this often: requests do not wait behind it.
const WARM_SLICE_MS = 4;

/** A look that moved nothing (a read failed, or a result voided it) is made again this much later. */
const WARM_RETRY_MS = 8_000;

/** A check of the config, with its account. */
export type Pair = { account: AccountConfig; check: CheckConfig };

/**
 * Looks at the checks due a look by now (the cache queues each for its moment: cache.ts
 * lookAt), for at most `budgetMs`, giving the event loop back every few milliseconds: a
 * missing status is read, one past its `until` derived again from its inputs (no reads),
 * and inputs whose slow part is due (inputs.ts) have it read again. A check nothing is due
 * for is not touched: an eighth of them a turn, to find the few due, cost the main thread
 * 1.75 ms a second at 500 checks on the Intel Xeon, the memory it touches cold after each
 * second's sleep (docs/decisions.md, "## 42", ninth round). What the budget leaves stays
 * queued for the next turn.
 */
export function createWarmPass(reads: StatusReads, cache: StatusCache, now: () => number) {
  let watched: readonly Pair[] | undefined;
  let generation = -1;
  let byKey = new Map<string, Pair>();
  let lastAt = Number.NEGATIVE_INFINITY;

  /** The config's checks, each queued for a look when it needs one (at once when never read). */
  function watch(pairs: readonly Pair[]) {
    if (pairs === watched && cache.generation() === generation) return;
    watched = pairs;
    generation = cache.generation();
    byKey = new Map(pairs.map((p) => [checkKey(p.account.id, p.check.id), p]));
    for (const { account, check } of pairs) cache.watch(account, check);
  }

  async function look({ account, check }: Pair, at: number): Promise<boolean> {
    const inputs = cache.inputs(account, check);
    const hit = cache.get(account, check, LIST_PERIOD);
    if (!inputs) await reads.fresh(account, check, LIST_PERIOD);
    else if (at >= inputs.refreshAt) await reads.refreshSlow(account, check, inputs);
    else if (!hit || at < hit.at || at >= hit.until)
      reads.derive(cache.ticket(account, check), account, check, inputs, at);
    else return false;
    return true;
  }

  /** How many checks it read or derived again. */
  return async function warm(pairs: readonly Pair[], budgetMs: number): Promise<number> {
    const started = performance.now();
    let slice = started;
    const at = now();
    watch(pairs);
    // The clock went back: a status derived at a later time is looked at again.
    if (at < lastAt) cache.lookAll();
    lastAt = at;
    let done = 0;
    for (let next = cache.nextDue(at); next; next = cache.nextDue(at)) {
      const pair = byKey.get(checkKey(next.accountId, next.checkId));
      // Not in the config (any more): looked at again if a reload brings it back.
      if (!pair) continue;
      try {
        if (await look(pair, at)) done++;
      } finally {
        cache.looked(next.accountId, next.checkId, at, at + WARM_RETRY_MS);
      }
      const t = performance.now();
      if (t - started > budgetMs) break;
      if (t - slice > WARM_SLICE_MS) {
        await yieldToIo();
        slice = performance.now();
      }
    }
    return done;
  };
}

// One turn of the warmer (warmer.ts holds its timer): keeps the default period's
// statuses ready so the list finds them so.
import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import { LIST_PERIOD, type StatusCache } from './cache.js';
import type { StatusReads } from './reads.js';

// The warmer gives the event loop back this often: requests do not wait behind it.
const WARM_SLICE_MS = 4;

/**
 * Looks at `share` of the checks (all by default) from where the last call stopped, for
 * at most `budgetMs`, giving the event loop back every few milliseconds: a missing status
 * is read, one past its `until` derived again from its inputs (no reads), and inputs whose
 * slow part is due (inputs.ts) have it read again. A status time alone does not move is
 * left alone: its check's next result derives it.
 */
export function createWarmPass(reads: StatusReads, cache: StatusCache, now: () => number) {
  /** Where the next warm goes on in its list of checks. */
  let warmAt = 0;
  return async function warm(
    pairs: ReadonlyArray<{ account: AccountConfig; check: CheckConfig }>,
    budgetMs: number,
    share = 1,
  ): Promise<number> {
    const started = performance.now();
    let slice = started;
    const at = now();
    const n = pairs.length;
    const looks = Math.min(n, Math.ceil(n * share));
    let done = 0;
    let looked = 0;
    const from = warmAt % Math.max(1, n);
    while (looked < looks) {
      const { account, check } = pairs[(from + looked) % n]!;
      looked++;
      const inputs = cache.inputs(account, check);
      const hit = cache.get(account, check, LIST_PERIOD);
      if (!inputs) await reads.fresh(account, check, LIST_PERIOD);
      else if (at >= inputs.refreshAt) await reads.refreshSlow(account, check, inputs);
      else if (!hit || at < hit.at || at >= hit.until)
        reads.derive(cache.ticket(account, check), account, check, inputs, at);
      else continue;
      done++;
      const t = performance.now();
      if (t - started > budgetMs) break;
      if (t - slice > WARM_SLICE_MS) {
        await yieldToIo();
        slice = performance.now();
      }
    }
    warmAt = from + looked;
    return done;
  };
}

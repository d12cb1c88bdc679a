// How a status is had: kept while young, derived again from its kept inputs (no reads),
// or read from storage (a cold start, an invalidation, another period). A check's inputs
// (inputs.ts) are read once, then moved by each result as it is stored, so a result
// costs no reads; what moves with time alone (their slow part) is read again when due.
import type { CheckResult, CheckStatus, Period } from '../../api/schemas/index.js';
import { checkKey } from '../../domain/keys.js';
import { PERIOD_MS } from '../../domain/period.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import { LIST_PERIOD, type StatusCache, type Ticket } from './cache.js';
import { deriveStatus, type StatusEnvironment } from './compute.js';
import { degradedSince, type DegradedMemory } from './degraded-since.js';
import {
  applyResult,
  checkLocations,
  loadInputs,
  mergeSlow,
  readSlowParts,
  type StatusInputs,
} from './inputs.js';
import type { StatusEngineDeps } from './engine.js';
import { createLimit } from './serial.js';
import { EXACT_RUNS, EXCLUDING_RUNS } from './window.js';

// A status of another period than the list's, read on request, is kept this long. The
// list's statuses are kept until a result, a read of their slow parts or their `until`.
export const CACHE_MS = 30_000;
// Statuses read from storage at once (about ten reads each), the rest waiting their turn:
// SQLite answers each read at once on this thread, so a few at a time leave room for
// requests; PostgreSQL sends the reads of many together (storage/pg/per-key.ts).
const COMPUTING_AT_ONCE = 4;

export type StatusReads = ReturnType<typeof createStatusReads>;

export function createStatusReads(deps: StatusEngineDeps, cache: StatusCache, moved: () => void) {
  const rawMs = () => deps.rawRetentionMs?.() ?? Number.POSITIVE_INFINITY;
  const computing = createLimit(deps.readsAtOnce ?? COMPUTING_AT_ONCE);
  const env: StatusEnvironment = {
    runnerSeenAt: (accountId, locationId) => deps.runners?.lastSeen(accountId, locationId) ?? null,
    notRunnableReason: deps.notRunnableReason,
    pausedOf: deps.pausedOf,
    maintenanceOf: deps.maintenanceOf,
    excludedOf: deps.excludedOf,
    heartbeatOf: deps.heartbeatOf,
  };
  // Per check, since when it has been degraded (degraded-since.ts): kept apart from the
  // cache, which drops a check's statuses whenever its incident or alert moves.
  const degraded = new Map<string, number | null>();

  /** Derives a status and says since when it has been degraded; the default period's moves the memory. */
  function judge(
    account: AccountConfig,
    check: CheckConfig,
    inputs: StatusInputs,
    now: number,
    keep: boolean,
  ) {
    const computed = deriveStatus(inputs, account, check, now, env);
    const key = checkKey(account.id, check.id);
    const before: DegradedMemory = degraded.get(key);
    const since = degradedSince(before, computed.status, inputs, now);
    if (keep) degraded.set(key, since);
    computed.status.degradedSince = since === null ? null : new Date(since).toISOString();
    return computed;
  }

  /** Derives the default period's status from the inputs at `now` and keeps it; the status. */
  function derive(
    ticket: Ticket,
    account: AccountConfig,
    check: CheckConfig,
    inputs: StatusInputs,
    now: number,
  ) {
    const { status, until } = judge(account, check, inputs, now, true);
    if (cache.set(ticket, LIST_PERIOD, now, status, until)) moved();
    return status;
  }

  /**
   * Reads a status now and keeps it (unless the check moved meanwhile); for the
   * default period, its inputs too, kept current from then on.
   */
  async function fresh(account: AccountConfig, check: CheckConfig, period: Period): Promise<CheckStatus> {
    const ticket = cache.ticket(account, check);
    let now = 0;
    const keep = period === LIST_PERIOD;
    const inputs = await computing(() => {
      now = deps.now();
      // Under a window that excludes its runs from the availability, each run is kept to be told in or out.
      const excluding =
        keep && (deps.excludedOf?.(account, check, now - PERIOD_MS[period], now).length ?? 0) > 0;
      const runs = excluding ? EXCLUDING_RUNS : EXACT_RUNS;
      return loadInputs(deps.storage, account, check, period, now, keep, rawMs(), runs);
    });
    if (keep) {
      cache.setInputs(ticket, inputs);
      return derive(ticket, account, check, inputs, now);
    }
    const { status, until } = judge(account, check, inputs, now, false);
    cache.set(ticket, period, now, status, until);
    return status;
  }

  /** The status as kept while it is young; else derived again from its inputs (no reads), or read. */
  async function cachedOrFresh(account: AccountConfig, check: CheckConfig, period: Period) {
    const hit = cache.get(account, check, period);
    const now = deps.now();
    if (hit && now >= hit.at && now < hit.until && (period === LIST_PERIOD || now - hit.at < CACHE_MS))
      return hit.status;
    const inputs = period === LIST_PERIOD ? cache.inputs(account, check) : undefined;
    if (inputs) return derive(cache.ticket(account, check), account, check, inputs, now);
    return fresh(account, check, period);
  }

  /**
   * Reads again what moves with time alone (inputs.ts), kept only if no result or
   * change reached the check meanwhile (the next pass tries again).
   */
  async function refreshSlow(account: AccountConfig, check: CheckConfig, inputs: StatusInputs) {
    const ticket = cache.ticket(account, check);
    const read = await computing(() =>
      readSlowParts(deps.storage, account, check, inputs, deps.now(), rawMs()),
    );
    const merged = mergeSlow(inputs, read);
    if (cache.setInputs(ticket, merged)) derive(ticket, account, check, merged, read.now);
  }

  /**
   * A stored result moves the kept inputs (no reads); with none kept, they are read,
   * which finds the result stored. The new status, or undefined when the inputs held
   * the result already.
   */
  async function addResult(account: AccountConfig, check: CheckConfig, result: CheckResult) {
    const inputs = cache.inputs(account, check);
    if (!inputs) {
      cache.drop(account, check);
      return fresh(account, check, LIST_PERIOD);
    }
    // Reads begun before this result may not hold it: they are voided.
    const ticket = cache.renew(account, check);
    const now = deps.now();
    if (!applyResult(inputs, checkLocations(account, check), result, now)) return undefined;
    return derive(ticket, account, check, inputs, now);
  }

  return { derive, fresh, cachedOrFresh, refreshSlow, addResult };
}

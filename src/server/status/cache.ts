// The status engine's memory: per account, each check's statuses by period, and
// the account's list snapshot (its checks' default-period statuses, in config
// order) that GET /v1/check-statuses filters, sorts and pages without computing
// anything. Entries are replaced, never removed, in the snapshot: a dropped
// check keeps its last status there until the new one is stored, so a list
// never waits for a computation (except at a cold start, or for the checks a
// reload moved).
//
// Storage answers asynchronously, so a status may be computed while a result or
// an alert change lands for the same check. A status (or its inputs) is stored
// only with the ticket taken before its reads began, and a drop, a result added
// to the inputs (`renew`) or a clear voids every earlier ticket of the check: a
// slow read never overwrites a newer one, nor loses a result counted meanwhile.
import { isDeepStrictEqual } from 'node:util';
import type { CheckStatus, Period } from '../../api/schemas/index.js';
import type { Moved } from '../config/diff.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import { createDueQueue, type Queued } from './due-queue.js';
import type { StatusInputs } from './inputs.js';

export const LIST_PERIOD: Period = '24h';

/**
 * Whether two statuses hold the same figures. A new result moves its check's last
 * execution, so the fields that tell two apart most often are compared first and the
 * whole of both walked only when they agree (the warmer's passes, mostly).
 */
export const sameStatus = (a: CheckStatus, b: CheckStatus): boolean =>
  a.status === b.status &&
  a.lastExecution?.timestamp === b.lastExecution?.timestamp &&
  a.availability.percentage === b.availability.percentage &&
  a.performance.averageResponseTime === b.performance.averageResponseTime &&
  isDeepStrictEqual(a, b);

export interface CachedStatus {
  at: number;
  /** It expires on its own then (a remote location's runner would count as gone); Infinity when never. */
  until: number;
  status: CheckStatus;
}

/** Queued for the warmer (warm-pass.ts) at the moment it next needs a look (lookAt). */
interface CheckEntry extends Queued {
  accountId: string;
  checkId: string;
  epoch: number;
  byPeriod: Map<Period, CachedStatus>;
  /** What the default period's status is derived from, kept current from each result. */
  inputs?: StatusInputs | undefined;
}

interface ListSnapshot {
  config: AccountConfig;
  index: Map<string, number>;
  statuses: Array<CheckStatus | undefined>;
}

interface AccountEntry {
  checks: Map<string, CheckEntry>;
  list?: ListSnapshot | undefined;
}

export interface Ticket {
  generation: number;
  accountId: string;
  checkId: string;
  epoch: number;
}

export type StatusCache = ReturnType<typeof createStatusCache>;

/**
 * When the warmer next needs to look at a check: now while its inputs were never read,
 * else when its slow part is due or its default-period status expires (or is missing).
 */
const lookAt = (entry: CheckEntry): number =>
  entry.inputs
    ? Math.min(entry.inputs.refreshAt, entry.byPeriod.get(LIST_PERIOD)?.until ?? Number.NEGATIVE_INFINITY)
    : Number.NEGATIVE_INFINITY;

export function createStatusCache() {
  let generation = 0;
  const accounts = new Map<string, AccountEntry>();
  const due = createDueQueue<CheckEntry>();
  const schedule = (entry: CheckEntry) => due.put(entry, lookAt(entry));

  const accountOf = (accountId: string) => {
    let entry = accounts.get(accountId);
    if (!entry) accounts.set(accountId, (entry = { checks: new Map() }));
    return entry;
  };
  const checkOf = (accountId: string, checkId: string) => {
    const { checks } = accountOf(accountId);
    let entry = checks.get(checkId);
    if (!entry) {
      entry = { accountId, checkId, epoch: 0, byPeriod: new Map(), due: 0, slot: -1 };
      checks.set(checkId, entry);
      schedule(entry);
    }
    return entry;
  };

  function snapshot(account: AccountConfig): ListSnapshot {
    const entry = accountOf(account.id);
    if (entry.list?.config === account) return entry.list;
    const statuses = account.checks.map((c) => entry.checks.get(c.id)?.byPeriod.get(LIST_PERIOD)?.status);
    const index = new Map(account.checks.map((c, i) => [c.id, i]));
    return (entry.list = { config: account, index, statuses });
  }

  return {
    get: (account: AccountConfig, check: CheckConfig, period: Period): CachedStatus | undefined =>
      accounts.get(account.id)?.checks.get(check.id)?.byPeriod.get(period),

    ticket: (account: AccountConfig, check: CheckConfig): Ticket => ({
      generation,
      accountId: account.id,
      checkId: check.id,
      epoch: checkOf(account.id, check.id).epoch,
    }),

    /**
     * Stores a status computed under `ticket`, unless the check was dropped (or the
     * cache cleared) since; true when stored and its status value moved.
     */
    set(ticket: Ticket, period: Period, at: number, status: CheckStatus, until = Infinity): boolean {
      if (ticket.generation !== generation) return false;
      const entry = checkOf(ticket.accountId, ticket.checkId);
      if (entry.epoch !== ticket.epoch) return false;
      const previous = entry.byPeriod.get(period);
      // Most of the warmer's passes find the figures as they were: the kept object stays,
      // so the new one dies young (not copied by each scavenge of the young generation)
      // and list answers built since find nothing replaced (http/status-list.ts).
      if (previous && sameStatus(previous.status, status)) status = previous.status;
      entry.byPeriod.set(period, { at, until, status });
      if (period !== LIST_PERIOD) return false;
      schedule(entry);
      const list = accounts.get(ticket.accountId)?.list;
      const i = list?.index.get(ticket.checkId);
      if (list && i !== undefined) list.statuses[i] = status;
      return previous !== undefined && previous.status.status !== status.status;
    },

    inputs: (account: AccountConfig, check: CheckConfig): StatusInputs | undefined =>
      accounts.get(account.id)?.checks.get(check.id)?.inputs,

    /** Keeps inputs read under `ticket`, unless the check moved since; true when kept. */
    setInputs(ticket: Ticket, inputs: StatusInputs): boolean {
      if (ticket.generation !== generation) return false;
      const entry = checkOf(ticket.accountId, ticket.checkId);
      if (entry.epoch !== ticket.epoch) return false;
      entry.inputs = inputs;
      schedule(entry);
      return true;
    },

    /** Voids the check's earlier tickets, keeping what it holds (its inputs are about to move); the new ticket. */
    renew(account: AccountConfig, check: CheckConfig): Ticket {
      const entry = checkOf(account.id, check.id);
      entry.epoch++;
      return { generation, accountId: account.id, checkId: check.id, epoch: entry.epoch };
    },

    /**
     * Voids the check's tickets, inputs and statuses, except the snapshot's, which is
     * kept (marked stale) until the new one is stored.
     */
    drop(account: AccountConfig, check: CheckConfig) {
      const entry = checkOf(account.id, check.id);
      entry.epoch++;
      entry.inputs = undefined;
      const listed = entry.byPeriod.get(LIST_PERIOD);
      entry.byPeriod.clear();
      if (listed)
        entry.byPeriod.set(LIST_PERIOD, {
          at: Number.NEGATIVE_INFINITY,
          until: Number.NEGATIVE_INFINITY,
          status: listed.status,
        });
      schedule(entry);
    },

    /** The account's default-period statuses in config order; undefined where none was computed yet. */
    list: (account: AccountConfig): ReadonlyArray<CheckStatus | undefined> => snapshot(account).statuses,

    /**
     * Marks every status stale, keeping the inputs they came from and the snapshot:
     * they are derived again (no reads) by the next request or the warmer.
     */
    expire() {
      for (const { checks } of accounts.values())
        for (const entry of checks.values()) {
          const listed = entry.byPeriod.get(LIST_PERIOD);
          entry.byPeriod.clear();
          if (listed)
            entry.byPeriod.set(LIST_PERIOD, {
              ...listed,
              at: Number.NEGATIVE_INFINITY,
              until: Number.NEGATIVE_INFINITY,
            });
          schedule(entry);
        }
    },

    /**
     * A reload moved these checks' config (config/diff.ts): each loses its tickets, inputs
     * and statuses, and its account's list snapshot is made again from the rest.
     */
    forget(moved: Moved) {
      for (const [accountId, checkIds] of moved) {
        const account = accounts.get(accountId);
        if (!account) continue;
        for (const id of checkIds === 'all' ? account.checks.keys() : checkIds) {
          const entry = account.checks.get(id);
          if (!entry) continue;
          entry.epoch++;
          entry.inputs = undefined;
          entry.byPeriod.clear();
          schedule(entry);
        }
        account.list = undefined;
      }
    },

    /** Forgets everything (PostgreSQL's notifications were lost: every status is read again). */
    clear() {
      generation++;
      accounts.clear();
      due.clear();
    },

    /** Moves when clear() forgets every check: the warmer's checks are then watched again. */
    generation: () => generation,

    /** Has the warmer look at the check when it needs a look (at once, if never read). */
    watch(account: AccountConfig, check: CheckConfig) {
      const entry = checkOf(account.id, check.id);
      if (entry.slot < 0) schedule(entry);
    },

    /** The next check the warmer needs to look at by `now`, out of the queue until looked(). */
    nextDue(now: number): { accountId: string; checkId: string } | undefined {
      return due.take(now);
    },

    /**
     * The warmer has looked at the check: queued for its next look, or at `retryAt` when
     * it still needs one (a read failed, or a result voided it), so a pass never takes
     * it twice. A result stored later queues it by its own moment again.
     */
    looked(accountId: string, checkId: string, now: number, retryAt: number) {
      const entry = accounts.get(accountId)?.checks.get(checkId);
      if (!entry) return;
      const at = lookAt(entry);
      due.put(entry, at > now ? at : retryAt);
    },

    /** Every check needs a look now (the clock went back: a status may be from its future). */
    lookAll() {
      for (const { checks } of accounts.values())
        for (const entry of checks.values()) due.put(entry, -Infinity);
    },
  };
}

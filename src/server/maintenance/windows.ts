// The maintenance windows of every account (docs/maintenance.md): those
// stored (made over the API, shared by every instance on the database) and those
// the config declares (read-only). Read again every second, only what changed since the last
// read (stored-reader.ts), and looked at as the clock moves: a
// window that starts or ends, by time or by a change made on any instance, moves
// the statuses and the scheduled checks (`onMoved`), and each occurrence's end is told
// (`onEnded`, whose listener pages, claiming each check's page in the database so it goes
// out once, from one instance). How far ends were looked at is kept in the database
// (holdEndsProcessed): a service down for an hour still tells the end it missed. Ends
// are looked for only once someone listens for them: a look with no one to page would
// move the mark past them for good.
import type { Clock } from '../../domain/clock.js';
import { checkKey } from '../../domain/keys.js';
import { createListeners } from '../../domain/listeners.js';
import { repeat, type Repeating } from '../../domain/repeat.js';
import { occurrenceAt, occurrencesBetween, type Occurrence } from '../../domain/maintenance.js';
import type { AccountConfig, CheckConfig, ServiceConfig } from '../config/schema.js';
import { scopeCovers } from '../config/scope.js';
import { logFailure } from '../storage/observed.js';
import type { Storage, StoredWindow } from '../storage/types.js';
import { emptyScopeReason } from './coverage.js';
import { windowOf, WindowProblem } from './rules.js';
import { createStoredReader } from './stored-reader.js';

const TICK_MS = 1_000;
// A database that never had an end looked at: ends this recent are still told.
const LOOK_BACK_MS = 60_000;
// The mark is written when an end was told, else at most this often (a write a second
// would be a write lock a second); a restart looks again at most this far (the claims
// keep each page to one).
const MARK_EVERY_MS = 60_000;

export type WindowSource = 'api' | 'config';

export interface KnownWindow {
  window: StoredWindow;
  source: WindowSource;
}

export interface ActiveWindow extends KnownWindow {
  occurrence: Occurrence;
}

export interface Maintenance {
  /** Every window of the account, the config's first. */
  all(accountId: string): KnownWindow[];
  get(accountId: string, id: string): KnownWindow | undefined;
  /** Stores a window made or changed over the API; its effects follow at once. */
  save(window: StoredWindow): Promise<void>;
  /** Erases a stored window (a scheduled one cancelled). */
  remove(accountId: string, id: string): Promise<boolean>;
  /** The active window over the check ending last; undefined when none. */
  activeOver(account: AccountConfig, check: CheckConfig): ActiveWindow | undefined;
  /** The active window in pause mode over the check ending last; undefined when none. */
  pauseOver(account: AccountConfig, check: CheckConfig): ActiveWindow | undefined;
  /** The windows excluding their time from availability over the check, active in [from, to]. */
  excludedOver(account: AccountConfig, check: CheckConfig, from: number, to: number): Occurrence[];
  /** The config as scheduled: each check under a window in pause mode disabled. */
  scheduled(config: ServiceConfig): ServiceConfig;
  /** The config's windows (at start and at each reload). */
  replaceConfig(config: ServiceConfig): Promise<void>;
  /**
   * A window started or ended (or changed while active): statuses and schedules move.
   * `windows`: those active before or after, whose checks' statuses are derived at once.
   */
  onMoved(listener: (windows: readonly StoredWindow[]) => Promise<void> | void): void;
  /** One occurrence of a window ended; heard on one instance only (the claim's winner). */
  onEnded(listener: (window: StoredWindow, occurrence: Occurrence) => Promise<void> | void): void;
  /** Reads the stored windows and looks for starts and ends (its listeners registered first). */
  tick(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/** Ends in (from, now] are told at the next look; `from` is read from the database at the first. */
function endsMark(storage: Pick<Storage, 'holdEndsProcessed' | 'markHoldEndsProcessed'>) {
  let lastLook: number | undefined;
  let marked = -Infinity;
  return {
    async from(now: number): Promise<number> {
      lastLook ??= (await storage.holdEndsProcessed('maintenance')) ?? now - LOOK_BACK_MS;
      return Math.min(lastLook, now);
    },
    async moved(now: number, told: boolean): Promise<void> {
      lastLook = Math.max(lastLook ?? now, now);
      if (!told && now - marked < MARK_EVERY_MS) return;
      await storage.markHoldEndsProcessed('maintenance', now);
      marked = now;
    },
  };
}

export function covers(window: StoredWindow, account: AccountConfig, check: CheckConfig): boolean {
  return window.accountId === account.id && scopeCovers(window.scope, check);
}

/** The config's windows, each parsed as the API's; one that cannot be is logged and left out. */
function configWindows(
  config: ServiceConfig,
  clock: Pick<Clock, 'now'>,
  log: (line: string) => void,
): Map<string, StoredWindow> {
  const out = new Map<string, StoredWindow>();
  for (const account of config.accounts)
    for (const [i, entry] of (account.maintenanceWindows ?? []).entries()) {
      try {
        const { id, ...body } = entry;
        // A config window is as old as the config says: its createdAt is its start.
        const w = windowOf(body, {
          accountId: account.id,
          id,
          createdBy: 'config',
          now: body.startsAt ? Date.parse(body.startsAt) : clock.now(),
        });
        out.set(checkKey(account.id, id), w);
        // Kept (a tag's checks may come later), but a typo in a scope should not pass silently.
        const empty = emptyScopeReason(account, w.scope);
        if (empty)
          log(`accounts.${account.id}.maintenanceWindows.${i} ("${id}") covers no check now: ${empty}`);
      } catch (error) {
        if (!(error instanceof WindowProblem)) throw error;
        log(`accounts.${account.id}.maintenanceWindows.${i}.${error.message}: the window is left out`);
      }
    }
  return out;
}

export function createMaintenance(deps: {
  storage: Pick<
    Storage,
    | 'saveMaintenanceWindow'
    | 'deleteMaintenanceWindow'
    | 'maintenanceWindows'
    | 'maintenanceWindowChanges'
    | 'holdEndsProcessed'
    | 'markHoldEndsProcessed'
  >;
  clock: Clock;
  config: ServiceConfig;
  log: (line: string) => void;
}): Maintenance {
  const { clock, storage } = deps;
  const moved = createListeners<[windows: readonly StoredWindow[]]>();
  const ended = createListeners<[window: StoredWindow, occurrence: Occurrence]>();
  const reader = createStoredReader(storage, clock);
  let fromConfig = new Map<string, StoredWindow>();
  let active: ActiveWindow[] = [];
  let signature = '';
  const mark = endsMark(storage);
  let ticker: Repeating | undefined;
  let ticking: Promise<void> | undefined;

  const known = (): KnownWindow[] => [
    ...[...fromConfig.values()].map((window) => ({ window, source: 'config' as const })),
    ...[...reader.windows().values()]
      .filter((w) => !fromConfig.has(checkKey(w.accountId, w.id)))
      .map((window) => ({ window, source: 'api' as const })),
  ];

  /** Which windows are active now; tells the `onMoved` listeners when that moved. */
  function look(now: number): Promise<void> {
    const next: ActiveWindow[] = [];
    for (const k of known()) {
      const { state, occurrence } = occurrenceAt(k.window, now);
      if (state === 'active' && occurrence) next.push({ ...k, occurrence });
    }
    const before = active;
    active = next;
    const sig = next
      .map(
        (a) =>
          `${a.window.accountId}/${a.window.id}/${a.occurrence.startsAt}/${a.occurrence.endsAt}/${a.window.mode}/${a.window.name}/${JSON.stringify(a.window.scope)}`,
      )
      .sort()
      .join('\n');
    if (sig !== signature) {
      signature = sig;
      return moved.emit([...before, ...next].map((a) => a.window));
    }
    return Promise.resolve();
  }

  /**
   * Occurrences ended in (lastLook, now], each told once its listeners are done; then the
   * mark moves. A failure leaves the mark: the next look tells them again.
   */
  async function ends(now: number) {
    if (ended.count() === 0) throw new Error('maintenance ends looked for before anyone listens for them');
    const from = await mark.from(now);
    let told = false;
    for (const { window } of known())
      for (const o of occurrencesBetween(window, from, now + 1)) {
        if (o.endsAt > now || o.endsAt <= from) continue;
        await ended.emit(window, o);
        told = true;
      }
    await mark.moved(now, told);
  }

  async function tickNow() {
    await reader.read();
    const now = clock.now();
    await look(now);
    await ends(now);
  }

  const tick = () =>
    (ticking ??= tickNow().finally(() => {
      ticking = undefined;
    }));

  const overlaps = (a: ActiveWindow, now: number) =>
    a.occurrence.startsAt <= now && a.occurrence.endsAt > now;

  function lastEnding(account: AccountConfig, check: CheckConfig, pauseOnly: boolean) {
    const now = clock.now();
    let best: ActiveWindow | undefined;
    for (const a of active)
      if (
        overlaps(a, now) &&
        (!pauseOnly || a.window.mode === 'pause') &&
        covers(a.window, account, check) &&
        (!best || a.occurrence.endsAt > best.occurrence.endsAt)
      )
        best = a;
    return best;
  }

  fromConfig = configWindows(deps.config, clock, deps.log);

  return {
    all: (accountId) => known().filter((k) => k.window.accountId === accountId),
    get: (accountId, id) => {
      const key = checkKey(accountId, id);
      const c = fromConfig.get(key);
      if (c) return { window: c, source: 'config' };
      const s = reader.windows().get(key);
      return s ? { window: s, source: 'api' } : undefined;
    },
    async save(window) {
      await storage.saveMaintenanceWindow(window, clock.now());
      reader.put(window);
      // The statuses it moves are derived before the answer: the next read shows them.
      await look(clock.now());
      // An end made now (PATCH "now", DELETE) is paged for at once, not at the next tick.
      await ends(clock.now());
    },
    async remove(accountId, id) {
      const was = await storage.deleteMaintenanceWindow(accountId, id, clock.now());
      reader.drop(accountId, id);
      await look(clock.now());
      return was;
    },
    activeOver: (account, check) => lastEnding(account, check, false),
    pauseOver: (account, check) => lastEnding(account, check, true),
    excludedOver(account, check, from, to) {
      const out: Occurrence[] = [];
      for (const { window } of known())
        if (window.excludeFromAvailability && covers(window, account, check))
          out.push(...occurrencesBetween(window, from, to));
      return out;
    },
    scheduled(config) {
      if (!active.some((a) => a.window.mode === 'pause')) return config;
      return {
        ...config,
        accounts: config.accounts.map((account) => ({
          ...account,
          checks: account.checks.map((c) =>
            c.enabled && lastEnding(account, c, true) ? { ...c, enabled: false } : c,
          ),
        })),
      };
    },
    replaceConfig(config) {
      fromConfig = configWindows(config, clock, deps.log);
      return look(clock.now());
    },
    onMoved: moved.on,
    onEnded: ended.on,
    tick,
    start() {
      ticker = repeat(clock, TICK_MS, tick, (error) =>
        logFailure('checkwall: cannot read the maintenance windows', error),
      );
    },
    async stop() {
      await ticker?.stop();
      await ticking;
    },
  };
}

// A person's pause of a check (docs/actions.md): kept in the database, so it outlives a
// restart and a config reload, and read again every few seconds, so a pause made on
// one instance reaches every instance sharing the database. A paused check is
// scheduled as a disabled one (`scheduled`); the config's own `enabled: false` stays
// the baseline: resuming a check the config disables does not run it.
import { checkKey } from '../../domain/keys.js';
import type { Clock } from '../../domain/clock.js';
import { createListeners } from '../../domain/listeners.js';
import { logFailure } from '../storage/observed.js';
import { repeat, type Repeating } from '../../domain/repeat.js';
import type { ServiceConfig } from '../config/schema.js';
import type { CheckPause, Storage } from '../storage/types.js';

// A pause or a resume made on another instance takes effect here this soon.
const READ_EVERY_MS = 2_000;

export interface PauseChange {
  /**
   * Checks (checkKey) resumed on this instance: they run within seconds, then on their
   * schedule (a resume read from another instance's is run by that instance).
   */
  resumed: ReadonlySet<string>;
}

export interface Pauses {
  of(accountId: string, checkId: string): CheckPause | undefined;
  pause(pause: CheckPause): Promise<CheckPause>;
  /** False when the check was not paused. */
  resume(accountId: string, checkId: string): Promise<boolean>;
  /** The config as scheduled: each paused check disabled. */
  scheduled(config: ServiceConfig): ServiceConfig;
  /** Pauses that moved, made here or read from another instance's. */
  onMoved(listener: (change: PauseChange) => void): void;
  /** Reads the stored pauses; the `onMoved` listeners hear of any that moved. */
  read(): Promise<void>;
  start(): void;
  /** Stops reading, once a read under way is done. */
  stop(): Promise<void>;
}

export function createPauses(deps: {
  storage: Pick<Storage, 'pauseCheck' | 'resumeCheck' | 'pauses'>;
  clock: Clock;
}): Pauses {
  const moved = createListeners<[change: PauseChange]>();
  let byCheck = new Map<string, CheckPause>();
  let reader: Repeating | undefined;
  let reading: Promise<void> | undefined;
  // Moves at each pause or resume made here: a read begun before one is not believed over it.
  let made = 0;

  function replace(next: Map<string, CheckPause>, here: boolean) {
    const resumed = new Set([...byCheck.keys()].filter((key) => !next.has(key)));
    const changed = resumed.size > 0 || [...next.keys()].some((key) => !byCheck.has(key));
    byCheck = next;
    if (changed)
      moved
        .emit({ resumed: here ? resumed : new Set() })
        .catch((error: unknown) => console.error('checkwall: a pause moved and its effects failed', error));
  }

  async function readNow() {
    const before = made;
    const all = await deps.storage.pauses();
    if (made !== before) return;
    replace(new Map(all.map((p) => [checkKey(p.accountId, p.checkId), p])), false);
  }

  const read = () =>
    (reading ??= readNow().finally(() => {
      reading = undefined;
    }));

  return {
    of: (accountId, checkId) => byCheck.get(checkKey(accountId, checkId)),
    async pause(pause) {
      const kept = await deps.storage.pauseCheck(pause);
      made++;
      replace(new Map([...byCheck, [checkKey(kept.accountId, kept.checkId), kept]]), true);
      return kept;
    },
    async resume(accountId, checkId) {
      const was = await deps.storage.resumeCheck(accountId, checkId);
      made++;
      const next = new Map(byCheck);
      next.delete(checkKey(accountId, checkId));
      replace(next, true);
      return was;
    },
    scheduled(config) {
      if (byCheck.size === 0) return config;
      return {
        ...config,
        accounts: config.accounts.map((account) =>
          account.checks.some((c) => byCheck.has(checkKey(account.id, c.id)))
            ? {
                ...account,
                checks: account.checks.map((c) =>
                  byCheck.has(checkKey(account.id, c.id)) ? { ...c, enabled: false } : c,
                ),
              }
            : account,
        ),
      };
    },
    onMoved: moved.on,
    read,
    start() {
      // A database that is down is the health's to tell (one line, a summary a minute, one
      // at recovery: status/health.ts), not a stack every 2 s here.
      reader = repeat(deps.clock, READ_EVERY_MS, read, (error) =>
        logFailure('checkwall: cannot read the paused checks', error),
      );
    },
    async stop() {
      await reader?.stop();
      // A read asked for elsewhere (a pause made) and under way: its failure is its caller's to tell.
      await reading?.catch(() => undefined);
    },
  };
}

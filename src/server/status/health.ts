// The service's own health (docs/health.md): "ok", or "degraded" with why. Sent with
// every statuses page (meta.service) and at GET /v1/health, so a console over figures
// that stopped moving says that the service is in trouble, and which.
//
// Storage faults arrive from storage/observed.ts; skipped runs and runners out of
// touch are read when asked. A storage fault is logged once with its cause, then
// counted: one line a minute while it lasts, one when it ends; never a line per failure.
import type { Clock, Timer } from '../../domain/clock.js';
import { frequencyToMs, type ServiceConfig } from '../config/schema.js';
import type { StorageFault, StorageFaultKind, StorageListener } from '../storage/observed.js';
import { runnerReach } from './runner-reach.js';

export type HealthCode = 'storage.write' | 'storage.unreachable' | 'runs.skipped' | 'runner.missing';

export interface HealthReason {
  code: HealthCode;
  message: string;
  /** ISO 8601: since when. */
  since: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  reasons: HealthReason[];
}

/** What the database's faults did lately (observeStorage tells it): built with the storage, before what reads it. */
export interface StorageWatch {
  /** Given to observeStorage (storage/observed.ts). */
  listener: StorageListener;
  /** The faults lasting now, as reasons. */
  reasons(): HealthReason[];
  stop(): void;
}

export interface Health {
  /** The report now; the same object while nothing changed (a page memo keys on it). */
  report(): HealthReport;
}

export interface HealthDeps {
  clock: Clock;
  storage: StorageWatch;
  /** Runs skipped in the last minute (schedule/run-accounting.ts). */
  skippedLastMinute(): number;
  /** Newest contact of a remote location's runners (schedule/runner-hub.ts). */
  lastSeen(accountId: string, locationId: string): number | null;
  config(): ServiceConfig;
}

/** How often a lasting storage fault is summed up in the log. */
export const SUMMARY_EVERY_MS = 60_000;
/**
 * A write fault ends with a write that succeeds this long after the last that failed: on a
 * disk nearly full, a small write fits between failing ones, and is no recovery.
 */
export const WRITES_QUIET_MS = 5_000;
// Skips and runner contacts are looked at anew at most this often (every check is walked).
const REREAD_MS = 1_000;

const WHAT: Record<StorageFaultKind, { code: HealthCode; failing: string; again: string }> = {
  write: { code: 'storage.write', failing: 'storage writes are failing', again: 'storage writes work again' },
  unreachable: {
    code: 'storage.unreachable',
    failing: 'the database is unreachable',
    again: 'the database is reachable again',
  },
};

interface Trouble {
  since: number;
  lastFailedAt: number;
  cause: string;
  /** Failures since the last line about it. */
  count: number;
  total: number;
}

/** Watches the database's faults: logs the first of a kind with its cause, then one line a minute, then its end. */
export function createStorageWatch(clock: Clock, log: (line: string) => void): StorageWatch {
  const troubles = new Map<StorageFaultKind, Trouble>();
  const summary: Timer = clock.setInterval(() => {
    for (const [kind, t] of troubles) {
      if (t.count === 0) continue;
      log(`${WHAT[kind].failing} still: ${t.count} more failures in the last minute (${t.cause})`);
      t.count = 0;
    }
  }, SUMMARY_EVERY_MS);
  summary.unref();
  const listener: StorageListener = {
    failed(fault: StorageFault) {
      const t = troubles.get(fault.kind);
      const now = clock.now();
      if (!t) {
        troubles.set(fault.kind, { since: now, lastFailedAt: now, cause: fault.cause, count: 0, total: 1 });
        return log(`${WHAT[fault.kind].failing}: ${fault.cause}`);
      }
      t.lastFailedAt = now;
      t.count++;
      t.total++;
      t.cause = fault.cause;
    },
    succeeded(kind) {
      const t = troubles.get(kind);
      if (!t || (kind === 'write' && clock.now() - t.lastFailedAt < WRITES_QUIET_MS)) return;
      troubles.delete(kind);
      const seconds = Math.round((clock.now() - t.since) / 1000);
      const failures = t.total === 1 ? '1 failure' : `${t.total} failures`;
      log(`${WHAT[kind].again} after ${seconds} s (${failures})`);
    },
  };
  return {
    listener,
    reasons: () =>
      [...troubles].map(([kind, t]) => ({
        code: WHAT[kind].code,
        message: `${WHAT[kind].failing}: ${t.cause}`,
        since: new Date(t.since).toISOString(),
      })),
    stop: () => clock.clearInterval(summary),
  };
}

/** The service's health: the storage's faults, runs skipped, remote locations with no runner. */
export function createHealth(deps: HealthDeps): Health {
  const { clock } = deps;
  const startedAt = clock.now();
  let report: HealthReport | undefined;
  let reportKey = '';
  let readAt = -Infinity;
  let others: HealthReason[] = [];
  // Since when runs are being skipped: the first look that saw them (no finer history is kept).
  let skippingSince: number | undefined;
  return {
    report() {
      const now = clock.now();
      if (now - readAt >= REREAD_MS) {
        readAt = now;
        const count = deps.skippedLastMinute();
        skippingSince = count === 0 ? undefined : (skippingSince ?? now);
        others = [...skipped(count, skippingSince), ...missingRunners(deps, now, startedAt)];
      }
      const all = [...deps.storage.reasons(), ...others];
      const key = JSON.stringify(all);
      if (!report || key !== reportKey) {
        reportKey = key;
        report = { status: all.length > 0 ? 'degraded' : 'ok', reasons: all };
      }
      return report;
    },
  };
}

function skipped(count: number, since: number | undefined): HealthReason[] {
  if (count === 0 || since === undefined) return [];
  const runs = count === 1 ? '1 scheduled run' : `${count} scheduled runs`;
  return [
    {
      code: 'runs.skipped',
      message: `${runs} skipped in the last minute: the service is behind schedule`,
      since: new Date(since).toISOString(),
    },
  ];
}

/** Remote locations whose checks cannot run: no runner in touch for 3 periods of the most frequent one. */
function missingRunners(deps: HealthDeps, now: number, startedAt: number): HealthReason[] {
  const out: HealthReason[] = [];
  for (const account of deps.config().accounts) {
    const remote = account.locations.filter((l) => l.remote);
    if (remote.length === 0) continue;
    for (const location of remote) {
      const checks = account.checks.filter((c) => c.enabled && c.locations.includes(location.id));
      const fastest = Math.min(
        ...checks.filter((c) => c.type !== 'heartbeat').map((c) => frequencyToMs(c.frequency)),
      );
      if (!Number.isFinite(fastest)) continue;
      const seen = (id: string) => deps.lastSeen(account.id, id);
      const { missing } = runnerReach(seen, [location], { type: 'api' }, fastest, now);
      if (missing[0] === undefined) continue;
      const at = deps.lastSeen(account.id, location.id);
      out.push({
        code: 'runner.missing',
        message: `${missing[0]} (account ${account.name})`,
        since: new Date(at ?? startedAt).toISOString(),
      });
    }
  }
  return out;
}

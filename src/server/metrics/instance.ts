// The service's own families of /metrics (docs/metrics.md): this instance's, so each
// instance is scraped on its own. What the parts already keep (run accounting, the
// outbox) is read at the scrape; what happens in passing (a run's lateness, a storage
// call's time, a delivery's outcome) is observed here as it happens. Plus prom-client's
// default process metrics, on this registry only (never the global default one).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AttemptOutcome, OutboxBacklog } from '../storage/types.js';
import { BEHIND, type RunStats } from '../schedule/run-accounting.js';
import { SKIP_REASONS } from '../storage/run-queue.js';
import { registerLoopDelay } from './loop-delay.js';
import { registerProcessDefaults } from './process-defaults.js';

export interface InstanceMetrics {
  registry: Registry;
  /** A scheduled run started this late after its due time (scheduler.ts). */
  scheduleLag(lateMs: number): void;
  /** A storage call answered in this long (storage/observed.ts). */
  storageCall(operation: string, seconds: number): void;
  /** A delivery attempt was recorded with this outcome (alerting/dispatcher.ts). */
  notification(status: AttemptOutcome['status']): void;
  /** Stops measuring the event-loop delay (the service's close). */
  close(): void;
}

/** What the scrape reads of the parts that keep it. */
export interface InstanceSources {
  runStats(): RunStats;
  skippedByReason(): ReadonlyMap<string, number>;
  outbox(): Promise<OutboxBacklog>;
  now(): number;
}

const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const STORAGE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** A pending outcome is an attempt that will be tried again. */
const NOTIFICATION_STATUS: Record<AttemptOutcome['status'], string> = {
  sent: 'sent',
  failed: 'failed',
  pending: 'retry',
};

/** The skip reasons' sentences (run-accounting.ts, storage/run-queue.ts) as label values. */
const SKIP_CODES = new Map<string, string>([
  [BEHIND, 'behind'],
  ...Object.entries(SKIP_REASONS).map(([code, sentence]): [string, string] => [
    sentence,
    code.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
  ]),
]);
const skipCode = (sentence: string) => SKIP_CODES.get(sentence) ?? 'other';

export function createInstanceMetrics(): InstanceMetrics {
  const registry = new Registry();
  registerProcessDefaults(registry);
  const stopLoopDelay = registerLoopDelay(registry);
  const lag = new Histogram({
    name: 'checkwall_schedule_lag_seconds',
    help: 'How late scheduled runs started after their due time, on this instance.',
    buckets: LAG_BUCKETS,
    registers: [registry],
  });
  const storage = new Histogram({
    name: 'checkwall_storage_operation_duration_seconds',
    help: 'How long storage calls took to answer, by operation.',
    labelNames: ['operation'],
    buckets: STORAGE_BUCKETS,
    registers: [registry],
  });
  const notifications = new Counter({
    name: 'checkwall_alert_notifications_total',
    help: 'Alert delivery attempts this instance recorded, by outcome (sent, failed for good, retry).',
    labelNames: ['status'],
    registers: [registry],
  });
  for (const status of Object.values(NOTIFICATION_STATUS)) notifications.inc({ status }, 0);
  return {
    registry,
    scheduleLag: (lateMs) => lag.observe(Math.max(0, lateMs) / 1000),
    storageCall: (operation, seconds) => storage.observe({ operation }, seconds),
    notification: (status) => notifications.inc({ status: NOTIFICATION_STATUS[status] }),
    close: stopLoopDelay,
  };
}

/** Adds the families read at each scrape from the parts that keep them. */
export function readInstanceSources(registry: Registry, sources: InstanceSources): void {
  const total = (name: string, help: string, read: (s: RunStats) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read(sources.runStats()));
      },
    });
  total('checkwall_runs_due_total', 'Scheduled runs that came due on this instance.', (s) => s.due);
  total('checkwall_runs_stored_total', 'Scheduled runs whose result this instance stored.', (s) => s.stored);
  new Counter({
    name: 'checkwall_runs_skipped_total',
    help: 'Due runs not run (counted, never run late), by reason.',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const reason of new Set(SKIP_CODES.values())) this.inc({ reason }, 0);
      for (const [sentence, n] of sources.skippedByReason()) this.inc({ reason: skipCode(sentence) }, n);
    },
  });
  new Gauge({
    name: 'checkwall_run_queue_depth',
    help: 'Runs waiting on this instance for a free run slot.',
    registers: [registry],
    collect() {
      this.set(sources.runStats().queued);
    },
  });
  new Gauge({
    name: 'checkwall_runs_in_progress',
    help: 'Runs executing on this instance now.',
    registers: [registry],
    collect() {
      this.set(sources.runStats().running);
    },
  });
  new Gauge({
    name: 'checkwall_alert_outbox_pending',
    help: 'Alert notifications waiting to be delivered (every instance shares the outbox).',
    registers: [registry],
    async collect() {
      this.set((await sources.outbox()).pending);
    },
  });
  new Gauge({
    name: 'checkwall_alert_outbox_oldest_age_seconds',
    help: 'Age of the oldest notification waiting to be delivered; 0 when none waits.',
    registers: [registry],
    async collect() {
      const { oldestAt } = await sources.outbox();
      this.set(oldestAt === null ? 0 : Math.max(0, sources.now() - oldestAt) / 1000);
    },
  });
}

// What a caller gives the service and what it gets back.
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import type { Accounts } from '../config/accounts.js';
import type { Alerting } from '../alerting/index.js';
import type { ReloadSummary } from '../config/diff.js';
import type { ServiceConfig } from '../config/schema.js';
import type { RunResult } from '../runners/types.js';
import type { WorkerPoolOptions } from '../runners/worker-pool.js';
import type { RunStats } from '../schedule/run-accounting.js';
import type { StatusEngine } from '../status/engine.js';
import type { Storage } from '../storage/types.js';

export type { ReloadSummary } from '../config/diff.js';

export interface ServiceOptions {
  config: ServiceConfig;
  dbPath: string;
  host?: string;
  port?: number;
  /** False in tests that seed results themselves. */
  startScheduler?: boolean;
  /** The service's clock: every part reads the time and sets its timers on it (default: the system's). */
  clock?: Clock;
  /** Only the time read, the timers the system's (tests that move the time alone). */
  now?: () => number;
  rateLimit?: { perSecond: number; burst: number };
  /** The run workers' pool: its size and entry (tests running from source point at a built entry). */
  workers?: WorkerPoolOptions;
  /** A SQLite file's writer thread entry (storage/sqlite/write-thread.ts; tests running from source point at a built one). */
  sqliteWriter?: URL;
  /** The metrics thread's entry (metrics/metrics-worker.ts; tests running from source point at a built one). */
  metricsThread?: URL;
  /** How long a remote runner holds the runs it claims (default 150 s; tests shorten it). */
  runnerLeaseMs?: number;
  /** How often this instance takes over local runs whose lease ran out (default 10 s). */
  sweepEveryMs?: number;
  /** Where the service's own lines go (a refused runner token); default stderr. */
  log?: (line: string) => void;
}

export interface Service {
  url: string;
  /** The sidecar's GET /metrics address when the config names metrics.port. */
  metricsUrl?: string | undefined;
  app: FastifyInstance;
  storage: Storage;
  engine: StatusEngine;
  accounts: Accounts;
  alerting: Alerting;
  /** Stores a result as if a runner had produced it (status, incidents and all). */
  record(accountId: string, result: RunResult): Promise<void>;
  /**
   * Runs on a new, already validated config: checks added, changed, disabled
   * or removed take effect at once; stored results stay; runs in flight finish.
   */
  reload(config: ServiceConfig): Promise<ReloadSummary>;
  /** Runs due, skipped, stored, waiting and running (every due run is stored or counted). */
  runStats(): RunStats;
  /** Runs executed per worker thread (thread id): runs do not share the API's thread. */
  runsByThread(): Map<number, number>;
  /**
   * Several instances on one PostgreSQL database: tells the others this one
   * reloaded its config (`version`, the file's digest). Nothing on SQLite.
   */
  announceConfig(version: string): Promise<void>;
  /** Called when another instance announced a reload (PostgreSQL only). */
  onPeerConfig(handler: (version: string) => void): void;
  close(): Promise<void>;
}

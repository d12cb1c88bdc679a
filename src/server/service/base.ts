// What every part of the service shares: its options, its one clock, storage (observed,
// so the database's faults reach the health and each call's time the metrics), the
// accounts and the config in force.
import { clockWithNow, systemClock, type Clock } from '../../domain/clock.js';
import { createAccounts, type Accounts } from '../config/accounts.js';
import type { ServiceConfig } from '../config/schema.js';
import { createInstanceMetrics, type InstanceMetrics } from '../metrics/instance.js';
import { createStorageWatch, type StorageWatch } from '../status/health.js';
import { openStorage } from '../storage/open.js';
import { observeStorage } from '../storage/observed.js';
import type { Storage } from '../storage/types.js';
import type { Closers } from './closers.js';
import type { ServiceOptions } from './options.js';

export interface Base {
  opts: ServiceOptions;
  clock: Clock;
  storage: Storage;
  accounts: Accounts;
  /** The config in force: a reload replaces it, and whoever reads it here sees the new one. */
  live: { config: ServiceConfig };
  /** The database's faults, as the storage met them (the service's health reads them). */
  faults: StorageWatch;
  /** The service's own lines (opts.log, else stderr). */
  log: (line: string) => void;
  /** This instance's own families of /metrics: the parts observe into them. */
  metrics: InstanceMetrics;
}

/** The one clock of the service: opts.clock, else the system's timers with opts.now, else the system's. */
const clockOf = (opts: ServiceOptions): Clock =>
  opts.clock ?? (opts.now ? clockWithNow(opts.now) : systemClock);

export async function openBase(opts: ServiceOptions, closers: Closers): Promise<Base> {
  const clock = clockOf(opts);
  const log = opts.log ?? ((line: string) => void process.stderr.write(`checkwall serve: ${line}\n`));
  const opened = await openStorage(opts.dbPath, {
    ...(opts.sqliteWriter ? { writer: opts.sqliteWriter } : {}),
    ...(opts.log ? { warn: opts.log } : {}),
  });
  const faults = createStorageWatch(clock, log);
  const metrics = createInstanceMetrics();
  closers.add('the event-loop delay', () => metrics.close());
  const storage = observeStorage(opened, { ...faults.listener, timed: metrics.storageCall });
  closers.add('storage', () => storage.close());
  closers.add('the storage watch', () => faults.stop());
  const accounts = createAccounts(opts.config, new Date(clock.now()));
  return { opts, clock, storage, accounts, live: { config: opts.config }, faults, log, metrics };
}

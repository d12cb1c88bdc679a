// The embedded monitoring service, wired from small named parts (docs/architecture.md,
// "The service"): the base every part shares, people's holds on the schedule, the run
// side, the status side, the HTTP app. The order is the point: every part is built, then
// every listener between them registered (wiring.ts), then the first reads (which may
// already page: a maintenance window that ended while the service was down), then the
// timers. `close` stops what was opened, newest first (closers.ts).
import { seedChannels } from '../alerting/seed-channels.js';
import { createRetention } from '../storage/retention.js';
import { createWarmer } from '../status/warmer.js';
import { openBase, type Base } from './base.js';
import { createClosers, type Closers } from './closers.js';
import { createHeartbeats, type Heartbeats } from './heartbeats.js';
import { createHolds, type Holds } from './holds.js';
import { listen } from './http.js';
import type { Service, ServiceOptions } from './options.js';
import { listenPeers } from './peers.js';
import { reloader } from './reload.js';
import { createRunSide, type RunSide } from './run-side.js';
import { createStatusSide, type StatusSide } from './status-side.js';
import { wire } from './wiring.js';

export type { ReloadSummary, Service, ServiceOptions } from './options.js';

export async function createService(opts: ServiceOptions): Promise<Service> {
  const closers = createClosers();
  try {
    return await start(opts, closers);
  } catch (error) {
    await closers.close();
    throw error;
  }
}

async function start(opts: ServiceOptions, closers: Closers): Promise<Service> {
  const base = await openBase(opts, closers);
  const holds = createHolds(base);
  const run = createRunSide(base, holds, closers);
  const status = createStatusSide(base, run, holds);
  const heartbeats = createHeartbeats(base, holds, run, status);
  const warmer = createWarmer({ engine: status.engine, clock: base.clock, config: base.live.config });
  wire(base, holds, run, status);
  status.alerting.start();
  closers.add('alerting', () => status.alerting.stop());
  await firstReads(base, holds, run);
  const { app, url, sidecar } = await listen(base, { run, status, holds, heartbeats }, closers);
  await startTimers(base, { holds, run, status, heartbeats }, closers);
  warmer.start();
  closers.add('the status warmer', () => warmer.stop());
  const peers = await listenPeers(base, status.engine, closers);
  let closing: Promise<void> | undefined;
  return {
    url,
    metricsUrl: sidecar?.url,
    app,
    storage: base.storage,
    engine: status.engine,
    accounts: base.accounts,
    alerting: status.alerting,
    record: status.record,
    reload: reloader(base, { holds, run, engine: status.engine, warmer }),
    runStats: () => run.scheduler.stats(),
    runsByThread: () => run.runner.workers.runsByThread(),
    announceConfig: peers.announce,
    onPeerConfig: peers.onConfig,
    close: () => (closing ??= closers.close()),
  };
}

/** What the database holds that every part starts from; its listeners are registered by now. */
async function firstReads({ opts, storage, clock }: Base, holds: Holds, run: RunSide) {
  await seedChannels(opts.config, storage, clock.now());
  await holds.pauses.read();
  await holds.maintenance.tick();
  await run.hub.refresh();
}

/** The scheduler and every part's own timer, each closed before what it uses. */
async function startTimers(
  { opts, clock, storage, live }: Base,
  {
    holds,
    run,
    status,
    heartbeats,
  }: { holds: Holds; run: RunSide; status: StatusSide; heartbeats: Heartbeats },
  closers: Closers,
) {
  // The heartbeats' last ends are read, and each is watched from now (or its change).
  await heartbeats.watch.turn();
  if (opts.startScheduler !== false) {
    // Before the first offer: a run's phases are the target's, not our threads' start-up.
    await run.runner.workers.warm();
    run.scheduler.start({ complete: status.complete, onSkipping: () => status.engine.scheduleMoved() });
    heartbeats.watch.start();
    closers.add('the heartbeat watch', () => heartbeats.watch.stop());
  }
  // Stopped also when never started: a run asked for now still goes through it.
  closers.add('the scheduler', () => run.scheduler.stop());
  const retention = createRetention({ storage, clock, days: () => live.config });
  await retention.start();
  closers.add('retention', () => retention.stop());
  run.hub.start();
  closers.add('the runner contacts', () => run.hub.stop());
  holds.pauses.start();
  closers.add('the pause reader', () => holds.pauses.stop());
  holds.maintenance.start();
  closers.add('the maintenance windows', () => holds.maintenance.stop());
  // An outage's end a stopped service missed pages now; then every location is judged every few seconds.
  await status.outages.start();
  closers.add('the location outages', () => status.outages.stop());
  // After the outages are read (they hold pages too): a parent's recovery a kill cut short pages now.
  await status.sweepDependencyEnds();
}

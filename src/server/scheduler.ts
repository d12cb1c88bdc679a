// Runs each enabled, runnable check from each of its locations at its
// frequency. First runs are staggered over the first few seconds; a bounded
// number run at once; a check+location still running skips its tick.
import { randomUUID } from 'node:crypto';
import { frequencyToMs, type AccountConfig, type CheckConfig, type LocationConfig } from './config-schema.js';
import type { RunResult, Scheduler, SchedulerOptions } from './contracts.js';
import { isRunnable } from './runners/index.js';

interface Job {
  account: AccountConfig;
  check: CheckConfig;
  locations: LocationConfig[];
  everyMs: number;
  nextAt: number;
  timer?: NodeJS.Timeout | undefined;
  running: Set<string>; // location ids in flight
}

const STAGGER_MS = 3_000;

export function createScheduler(opts: SchedulerOptions): Scheduler {
  const controller = new AbortController();
  const jobs = new Map<string, Job>();
  const inFlight = new Set<Promise<void>>();
  const queue: Array<() => Promise<void>> = [];
  let active = 0;
  let stopped = false;

  for (const account of opts.config.accounts) {
    for (const check of account.checks) {
      if (!check.enabled || !isRunnable(check)) continue;
      const locations = account.locations.filter((l) => check.locations.includes(l.id));
      jobs.set(key(account.id, check.id), {
        account,
        check,
        locations,
        everyMs: frequencyToMs(check.frequency),
        nextAt: 0,
        running: new Set(),
      });
    }
  }

  function arm(job: Job, delayMs: number) {
    job.nextAt = Date.now() + delayMs;
    job.timer = setTimeout(() => tick(job), delayMs);
    job.timer.unref();
  }

  function tick(job: Job) {
    if (stopped) return;
    arm(job, job.everyMs);
    const runId = randomUUID();
    for (const location of job.locations) {
      if (job.running.has(location.id)) continue; // never two runs of one check+location
      job.running.add(location.id);
      enqueue(() => runOne(job, location, runId));
    }
  }

  async function runOne(job: Job, location: LocationConfig, runId: string) {
    try {
      const result: RunResult = await opts.run(
        job.account,
        job.check,
        location,
        { ...opts.ctx, signal: controller.signal },
        'schedule',
      );
      // A run cut short by stop() measured nothing about the target: keep it out.
      if (!controller.signal.aborted) opts.record(job.account.id, { ...result, runId });
    } catch (error) {
      // Runners return failures as results; an exception here is a bug in a runner.
      console.error(`checkwall: run of ${job.check.id}@${location.id} threw`, error);
    } finally {
      job.running.delete(location.id);
    }
  }

  function enqueue(task: () => Promise<void>) {
    queue.push(task);
    pump();
  }

  function pump() {
    while (active < opts.config.maxConcurrentRuns && queue.length > 0 && !stopped) {
      const task = queue.shift()!;
      active++;
      const p = task().finally(() => {
        active--;
        inFlight.delete(p);
        pump();
      });
      inFlight.add(p);
    }
  }

  return {
    start() {
      let i = 0;
      const n = Math.max(1, jobs.size);
      for (const job of jobs.values()) arm(job, Math.round((i++ / n) * STAGGER_MS));
    },
    async stop() {
      stopped = true;
      for (const job of jobs.values()) clearTimeout(job.timer);
      queue.length = 0;
      controller.abort(new Error('the service is stopping'));
      await Promise.allSettled([...inFlight]);
    },
    nextRun(accountId: string, checkId: string) {
      const job = jobs.get(key(accountId, checkId));
      return job && job.nextAt > 0 ? new Date(job.nextAt) : null;
    },
  };
}

const key = (accountId: string, checkId: string) => `${accountId}\u0000${checkId}`;

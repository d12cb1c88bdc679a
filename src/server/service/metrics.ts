// GET /metrics: this instance's own families, and the statuses as the list serves them.
import { readInstanceSources } from '../metrics/instance.js';
import { createScrape, type Scrape } from '../metrics/scrape.js';
import type { Base } from './base.js';
import type { RunSide } from './run-side.js';
import type { StatusSide } from './status-side.js';

export function metricsScrape(
  { opts, clock, storage, accounts, metrics, log }: Base,
  run: RunSide,
  status: StatusSide,
): Scrape {
  readInstanceSources(metrics.registry, {
    runStats: () => run.scheduler.stats(),
    skippedByReason: () => run.scheduler.skippedByReason(),
    outbox: () => storage.outboxBacklog(),
    now: clock.now,
  });
  return createScrape({
    instance: metrics.registry,
    accounts: () => accounts.all(),
    statuses: async (account) => {
      const list = await status.engine.list(account, '24h');
      return (i) => (list[i] ? status.engine.present(account.id, list[i]) : undefined);
    },
    runs: status.runs,
    runners: run.hub,
    clock,
    log,
    ...(opts.metricsThread ? { thread: opts.metricsThread } : {}),
  });
}

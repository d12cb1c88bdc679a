// `--public`: a public dashboard read without credentials replaces the
// account-wide statuses feed. The answer carries the dashboard and its checks'
// public projection; the summary is counted here, as the public read has none.
import type { CheckStatus, PublicCheckStatus } from '../../api/schemas/index.js';
import { summarize } from '../../domain/summary.js';
import type { Feed } from '../poller.js';
import { statusesInterval } from './statuses-feed.js';

export function publicDashboardFeed(slug: string): Feed {
  return {
    key: 'public-dashboard',
    primary: true,
    active: () => true,
    intervalMs: statusesInterval,
    async run({ client, store, signal, now }) {
      const { data } = await client.publicDashboard(slug, { signal });
      const checks = data.checks.map(fromPublic);
      // The service chose the checks (its own and its groups'); the projection names no
      // group, so the dashboard's reach here is the checks it sent.
      const ids = [...new Set([...data.dashboard.checkIds, ...checks.map((c) => c.checkId)])];
      store.getState().showDashboard({ ...data.dashboard, checkIds: ids });
      store.getState().applyStatuses(checks, summarize(checks), now());
    },
  };
}

/**
 * A public check as the board holds a check: what the projection has, and the rest
 * empty (no tags, no group, no schedule, no alerts), which the views show as `—`.
 */
export function fromPublic(p: PublicCheckStatus): CheckStatus {
  return {
    checkId: p.checkId,
    checkName: p.checkName,
    checkType: p.checkType,
    status: p.status,
    availability: p.availability,
    performance: p.performance,
    lastExecution: p.lastExecution && { ...p.lastExecution, location: '' },
    currentIncident: p.currentIncident ?? null,
    alerts: { active: 0, acknowledged: 0, total24h: 0 },
    schedule: { frequency: '—', nextRun: null, enabled: true },
    locations: p.locations.map((l) => ({ id: l.id, name: l.name, status: l.status, lastSuccess: null })),
    tags: [],
    group: null,
  };
}

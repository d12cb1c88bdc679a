// The accounts the service knows, looked up by key, id, heartbeat token and
// public dashboard slug. Built once from the validated config.
import type { Dashboard } from '../api/schemas.js';
import type { AccountConfig, CheckConfig, DashboardConfig, ServiceConfig } from './config-schema.js';

export interface Accounts {
  byKey(apiKey: string): AccountConfig | undefined;
  byId(id: string): AccountConfig | undefined;
  check(account: AccountConfig, checkId: string): CheckConfig | undefined;
  heartbeat(token: string): { account: AccountConfig; check: CheckConfig } | undefined;
  publicDashboard(slug: string): { account: AccountConfig; dashboard: Dashboard } | undefined;
  dashboards(account: AccountConfig): Dashboard[];
  all(): AccountConfig[];
}

export function createAccounts(config: ServiceConfig, startedAt: Date): Accounts {
  const keys = new Map<string, AccountConfig>();
  const ids = new Map<string, AccountConfig>();
  const tokens = new Map<string, { account: AccountConfig; check: CheckConfig }>();
  const boards = new Map<string, Dashboard[]>();
  for (const account of config.accounts) {
    ids.set(account.id, account);
    for (const key of account.apiKeys) keys.set(key, account);
    for (const check of account.checks) if (check.token) tokens.set(check.token, { account, check });
    boards.set(
      account.id,
      account.dashboards.map((d) => toDashboard(d, startedAt)),
    );
  }
  return {
    byKey: (k) => keys.get(k),
    byId: (id) => ids.get(id),
    check: (account, checkId) => account.checks.find((c) => c.id === checkId),
    heartbeat: (token) => tokens.get(token),
    publicDashboard(slug) {
      for (const account of config.accounts) {
        const dashboard = boards.get(account.id)?.find((d) => d.customUrl === slug && !d.isPrivate);
        if (dashboard) return { account, dashboard };
      }
      return undefined;
    },
    dashboards: (account) => boards.get(account.id) ?? [],
    all: () => config.accounts,
  };
}

function toDashboard(d: DashboardConfig, startedAt: Date): Dashboard {
  const at = startedAt.toISOString();
  return { ...d, widgets: d.widgets.map((w) => ({ ...w })), createdAt: at, updatedAt: at };
}

/** The checks a dashboard shows: its own ids and the checks of its groups. */
export function dashboardCheckIds(
  account: AccountConfig,
  dashboard: Pick<Dashboard, 'checkIds' | 'checkGroupIds'>,
): Set<string> {
  const ids = new Set(dashboard.checkIds);
  for (const check of account.checks)
    if (check.group && dashboard.checkGroupIds.includes(check.group)) ids.add(check.id);
  return ids;
}

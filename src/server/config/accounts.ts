// The accounts the service knows, looked up by key, id, heartbeat token and
// public dashboard slug. Built from the validated config, and rebuilt whole
// when a reload replaces it (a request sees the old config or the new one).
import type { Role } from '../../api/schemas/actions.js';
import type { Dashboard } from '../../api/schemas/index.js';
import { createSecretIndex } from './digest.js';
import {
  apiKeyDigest,
  type AccountConfig,
  type CheckConfig,
  type DashboardConfig,
  type ServiceConfig,
} from './schema.js';

/** Who a request's key is: never the key. */
export interface KeyIdentity {
  name: string;
  role: Role;
}

export interface KeyHolder {
  account: AccountConfig;
  key: KeyIdentity;
}

export interface Accounts {
  /** By the key's whole digest, compared in constant time (digest.ts). */
  byKey(apiKey: string): KeyHolder | undefined;
  byId(id: string): AccountConfig | undefined;
  check(account: AccountConfig, checkId: string): CheckConfig | undefined;
  heartbeat(token: string): { account: AccountConfig; check: CheckConfig } | undefined;
  publicDashboard(slug: string): { account: AccountConfig; dashboard: Dashboard } | undefined;
  dashboards(account: AccountConfig): Dashboard[];
  all(): AccountConfig[];
  /** Replaces the config (a reload); lookups answer from the new one at once. */
  replace(config: ServiceConfig): void;
}

function index(config: ServiceConfig, startedAt: Date) {
  const keys = createSecretIndex<KeyHolder>();
  const ids = new Map<string, AccountConfig>();
  const tokens = new Map<string, { account: AccountConfig; check: CheckConfig }>();
  const boards = new Map<string, Dashboard[]>();
  const checks = new Map<string, Map<string, CheckConfig>>();
  for (const account of config.accounts) {
    ids.set(account.id.toLowerCase(), account);
    checks.set(account.id, new Map(account.checks.map((c) => [c.id, c])));
    for (const key of account.apiKeys)
      keys.setDigest(apiKeyDigest(key), { account, key: { name: key.name, role: key.role } });
    for (const check of account.checks) if (check.token) tokens.set(check.token, { account, check });
    boards.set(
      account.id,
      account.dashboards.map((d) => toDashboard(d, startedAt)),
    );
  }
  return { config, keys, ids, tokens, boards, checks };
}

export function createAccounts(config: ServiceConfig, startedAt: Date): Accounts {
  let at = index(config, startedAt);
  return {
    byKey: (k) => at.keys.get(k),
    // Account ids are UUIDs: X-Service-Account may name one in either case.
    byId: (id) => at.ids.get(id.toLowerCase()),
    // Indexed: every stored result looks its check up (a scan of 10,000 checks each time was not free).
    check: (account, checkId) =>
      at.checks.get(account.id)?.get(checkId) ?? account.checks.find((c) => c.id === checkId),
    heartbeat: (token) => at.tokens.get(token),
    publicDashboard(slug) {
      for (const account of at.config.accounts) {
        const dashboard = at.boards.get(account.id)?.find((d) => d.customUrl === slug && !d.isPrivate);
        if (dashboard) return { account, dashboard };
      }
      return undefined;
    },
    dashboards: (account) => at.boards.get(account.id) ?? [],
    all: () => at.config.accounts,
    // Dashboards keep the service's start as their createdAt/updatedAt, as they do today.
    replace(next) {
      at = index(next, startedAt);
    },
  };
}

function toDashboard(d: DashboardConfig, startedAt: Date): Dashboard {
  const at = startedAt.toISOString();
  return { ...d, widgets: d.widgets.map((w) => ({ ...w })), createdAt: at, updatedAt: at };
}

/** The checks a dashboard shows: its own ids and the checks of its groups. */
export function dashboardCheckIds(
  account: Pick<AccountConfig, 'checks'>,
  dashboard: Pick<Dashboard, 'checkIds' | 'checkGroupIds'>,
): Set<string> {
  const ids = new Set(dashboard.checkIds);
  for (const check of account.checks)
    if (check.group && dashboard.checkGroupIds.includes(check.group)) ids.add(check.id);
  return ids;
}

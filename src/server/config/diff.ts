// What a config reload moved, and so what the status engine must forget. A status
// embeds its check's config (name, tags, thresholds, locations) and, from its
// account's, the locations and groups; nothing else in the config reaches it. A
// reload that changes one check of many forgets that one: forgetting them all
// made the next statuses page read every status again, a long stall of the event
// loop on SQLite and a cold start on each PostgreSQL instance (see BENCHMARKS.md,
// "Storage, runners, HTTP").
import type { AccountConfig, ServiceConfig } from './schema.js';

/** How many checks a reload added, changed and removed; and what it changed but does not apply. */
export interface ReloadSummary {
  added: number;
  changed: number;
  removed: number;
  /** Each a key and why it waits (docs/service.md, "Reloading the config"). */
  waiting: string[];
}

/** Keys read once, at start (the browser pool, the metrics port's listener). */
const RESTART_KEYS = ['maxConcurrentBrowserRuns', 'metrics'] as const;

/**
 * What the file changed that the reload leaves as it was, so the operator hears of
 * it rather than believe it applied: a restart's keys, and an account's channels
 * (the file creates them for a new account only; after that they live in storage).
 */
function waitingChanges(before: ServiceConfig, after: ServiceConfig): string[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const waiting = RESTART_KEYS.filter((key) => !same(before[key], after[key])).map(
    (key) => `${key} (takes a restart)`,
  );
  const old = new Map(before.accounts.map((a) => [a.id, a]));
  after.accounts.forEach((account, a) => {
    const was = old.get(account.id);
    if (was && !same(was.alertChannels, account.alertChannels))
      waiting.push(
        `accounts.${a}.alertChannels (created from the file for a new account only: change them over the API or the console)`,
      );
  });
  return waiting;
}

/** Per account, the checks whose statuses no longer hold; 'all' when the account's own part moved. */
export type Moved = Map<string, ReadonlySet<string> | 'all'>;

const statusPart = (account: AccountConfig) => JSON.stringify([account.locations, account.groups]);

export function diffConfig(
  before: ServiceConfig,
  after: ServiceConfig,
): { summary: ReloadSummary; moved: Moved } {
  const summary: ReloadSummary = { added: 0, changed: 0, removed: 0, waiting: waitingChanges(before, after) };
  const moved: Moved = new Map();
  const old = new Map(before.accounts.map((a) => [a.id, a]));
  for (const account of after.accounts) {
    const was = old.get(account.id);
    old.delete(account.id);
    const checks = new Map(was?.checks.map((c) => [c.id, JSON.stringify(c)]));
    const ids = new Set<string>();
    for (const check of account.checks) {
      const text = checks.get(check.id);
      checks.delete(check.id);
      if (text === undefined) summary.added++;
      else if (text !== JSON.stringify(check)) summary.changed++;
      else continue;
      ids.add(check.id);
    }
    for (const id of checks.keys()) ids.add(id);
    summary.removed += checks.size;
    if (!was || statusPart(was) !== statusPart(account)) moved.set(account.id, 'all');
    else if (ids.size > 0) moved.set(account.id, ids);
  }
  for (const [id, account] of old) {
    summary.removed += account.checks.length;
    moved.set(id, 'all');
  }
  return { summary, moved };
}

// Ids the service looks up by value, refused when named twice in the config
// (src/server/config/load.ts reports them with the other reference problems).
import type { ServiceConfig } from './schema.js';

/**
 * Ids a lookup keeps one of: a location, group or dashboard id twice in an account
 * (the second shadowed the first), a location twice in a check's list, and a
 * heartbeat token twice anywhere (a ping URL names no account: one check got every
 * ping, the other was missed forever).
 */
export function namedTwice(config: ServiceConfig): string[] {
  const problems: string[] = [];
  const once = (seen: Map<string, string>, value: string, at: string) => {
    const before = seen.get(value);
    if (before !== undefined) problems.push(`${at}: "${value}" is used twice (first at ${before})`);
    else seen.set(value, at);
  };
  const tokens = new Map<string, string>();
  config.accounts.forEach((account, a) => {
    for (const kind of ['locations', 'groups', 'dashboards'] as const) {
      const seen = new Map<string, string>();
      account[kind].forEach((item, i) => once(seen, item.id, `accounts.${a}.${kind}.${i}.id`));
    }
    account.checks.forEach((check, c) => {
      const at = `accounts.${a}.checks.${c}`;
      const seen = new Map<string, string>();
      check.locations.forEach((l, i) => once(seen, l, `${at}.locations.${i}`));
      // The token is the ping URL's secret: named by where it is, never echoed.
      if (check.token === undefined) return;
      const before = tokens.get(check.token);
      if (before !== undefined)
        problems.push(`${at}.token: the same token as ${before}; each heartbeat needs its own`);
      else tokens.set(check.token, `${at}.token`);
    });
  });
  return problems;
}

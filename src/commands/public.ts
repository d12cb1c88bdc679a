// `checkwall --public URL`: one public dashboard, read without credentials
// through the service's public endpoint, in the console.
import { createClient } from '../api/client.js';
import { describeError, isApiError } from '../api/errors.js';
import type { PublicDashboard } from '../api/schemas/index.js';
import { parsePublicUrl } from '../domain/public-url.js';
import { sanitize } from '../domain/sanitize.js';
import { summarize } from '../domain/summary.js';
import { scopeOf } from '../store/dashboards-slice.js';
import { publicFeeds } from '../store/feeds/index.js';
import { fromPublic } from '../store/feeds/public-feed.js';
import { runConsoleApp } from './run-console.js';
import { CONSOLE_USAGE, usageError } from './usage.js';

export interface PublicOptions {
  url: string;
  refreshSeconds: number;
  color: boolean | undefined;
  ascii: boolean;
  /** Connection flags given along with --public: they make no sense there. */
  connectionFlags: string[];
}

export async function runPublic(opts: PublicOptions): Promise<number> {
  if (opts.connectionFlags.length > 0)
    return usageError(
      'console',
      new Error(`--public reads without credentials: drop ${opts.connectionFlags.join(', ')}`),
      CONSOLE_USAGE,
    );
  const target = parsePublicUrl(opts.url);
  if ('error' in target) return usageError('console', new Error(target.error), CONSOLE_USAGE);
  const client = createClient({ baseUrl: target.baseUrl });
  let first: PublicDashboard;
  try {
    // Once before the console starts, so a private or unknown slug is a clear error, not an empty screen.
    first = await client.publicDashboard(target.slug);
  } catch (error) {
    await client.close();
    // The service's message is text from the network: no escape sequence reaches the terminal.
    process.stderr.write(`checkwall: ${sanitize(whyNot(error, target.slug, target.baseUrl))}\n`);
    return 2;
  }
  return runConsoleApp({
    client,
    label: 'public',
    refreshSeconds: opts.refreshSeconds,
    color: opts.color,
    ascii: opts.ascii,
    initialView: { name: 'dashboard', dashboard: first.data.dashboard, scope: scopeOf(first.data.dashboard) },
    feeds: publicFeeds(target.slug),
    isPublic: true,
    setup: (store) => {
      const checks = first.data.checks.map(fromPublic);
      store.getState().applyStatuses(checks, summarize(checks), Date.now());
    },
  });
}

function whyNot(error: unknown, slug: string, baseUrl: string): string {
  if (isApiError(error) && error.status === 404)
    return `no public dashboard "${slug}" at ${baseUrl}: it is private or does not exist (a private dashboard needs an account: checkwall console, then :dashboards)`;
  return `could not read the public dashboard "${slug}": ${describeError(error)}`;
}

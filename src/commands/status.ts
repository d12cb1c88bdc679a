// `checkwall status`: one request cycle, a plain table or JSON, and an exit
// code for scripts: 0 all selected passing (or heartbeats awaiting their first
// ping), 1 anything else, 2 could not tell
// (which includes a filter or dashboard that selects nothing: an empty gate
// would pass by mistake).
import { parseArgs } from 'node:util';
import { readAllStatuses, type MonitoringClient } from '../api/client.js';
import { describeError } from '../api/errors.js';
import type { CheckStatus } from '../api/schemas/index.js';
import { filterToQuery, matchesFilter, parseFilter, type CheckFilter } from '../domain/filter.js';
import { sanitize } from '../domain/sanitize.js';
import { serviceTrouble } from '../domain/service-health.js';
import { summarize } from '../domain/summary.js';
import { inScope } from '../store/selectors.js';
import type { Scope } from '../store/types.js';
import { dashboardScope } from './dashboard-scope.js';
import { clientFromSettings, CONNECTION_OPTIONS } from './settings.js';
import { countsLine, statusTable } from './status-table.js';
import { colorWanted } from './terminal.js';
import { STATUS_USAGE, usageError } from './usage.js';

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  json: { type: 'boolean', default: false },
  filter: { type: 'string', default: '' },
  dashboard: { type: 'string' },
  width: { type: 'string' },
  ascii: { type: 'boolean', default: false },
  'no-color': { type: 'boolean', default: false },
} as const;

/** Output that is no terminal is not cut at 80: a file or a pipe has all the width it wants. */
export const GENEROUS_WIDTH = 200;

/** The table's width: --width, else the terminal's, else COLUMNS, else generous. */
export function tableWidth(
  flag: string | undefined,
  tty: number | undefined,
  env: NodeJS.ProcessEnv,
): number {
  if (flag !== undefined) {
    const n = Number(flag);
    if (!Number.isInteger(n) || n < 20) throw new Error(`--width takes columns (at least 20), got "${flag}"`);
    return n;
  }
  if (tty) return tty;
  const columns = Number(env['COLUMNS']);
  return Number.isInteger(columns) && columns >= 20 ? columns : GENEROUS_WIDTH;
}

export async function runStatus(argv: string[]): Promise<number> {
  let values;
  let width: number;
  let filter: CheckFilter;
  try {
    values = parseArgs({ args: argv, strict: true, options: OPTIONS }).values;
    const tty = process.stdout.isTTY ? process.stdout.columns || 80 : undefined;
    width = tableWidth(values.width, tty, process.env);
    const parsed = parseFilter(values.filter);
    if (parsed.errors.length > 0) throw new Error(`--filter: ${parsed.errors.join('; ')}`);
    filter = parsed.filter;
  } catch (error) {
    return usageError('status', error, STATUS_USAGE);
  }
  const account = clientFromSettings(values, 'checkwall status');
  if (!account) return 2;
  const { client } = account;
  try {
    const scope = values.dashboard ? await dashboardScope(client, values.dashboard) : null;
    if (typeof scope === 'string') return fail(scope);
    const read = await readSelected(client, filter, scope);
    if (read.selected.length === 0) return fail(nothingSelected(values.filter, scope));
    print(read, { ...values, width, scope });
    // A heartbeat awaiting its first ping is fine (a deploy gate right after a restart): shown `waiting`.
    return read.selected.every((c) => c.status === 'passing' || c.awaitingFirstPing) ? 0 : 1;
  } catch (error) {
    return fail(describeError(error));
  } finally {
    await client.close();
  }
}

/** The checks the filter and dashboard select, and their summary (the account's only when all are selected). */
async function readSelected(client: MonitoringClient, filter: CheckFilter, scope: Scope | null) {
  const { checks, summary, service } = await readAllStatuses(client, filterToQuery(filter));
  const selected = checks.filter((c: CheckStatus) => inScope(c, scope) && matchesFilter(c, filter));
  const everything = scope === null && filter.terms.length === 0;
  return { selected, service, summary: everything && summary ? summary : summarize(selected) };
}

interface Printing {
  json: boolean;
  ascii: boolean;
  'no-color': boolean;
  filter: string;
  width: number;
  scope: Scope | null;
}

function print(read: Awaited<ReturnType<typeof readSelected>>, opts: Printing): void {
  const color = colorWanted(opts['no-color'] ? false : undefined, process.env, Boolean(process.stdout.isTTY));
  const trouble = serviceTrouble(read.service);
  // On stderr, so --json's stdout stays one JSON document; red, as the console shows it.
  if (trouble) process.stderr.write(`${color ? `\u001b[31m${trouble}\u001b[0m` : trouble}\n`);
  if (opts.json) {
    const { summary, selected: checks, service } = read;
    process.stdout.write(`${JSON.stringify({ summary, checks, ...(service ? { service } : {}) })}\n`);
    return;
  }
  const table = statusTable(read.selected, opts.width, { color, ascii: opts.ascii });
  process.stdout.write(`${table}\n${countsLine(read.summary, opts.scope?.name, opts.filter)}\n`);
}

function nothingSelected(filter: string, scope: Scope | null): string {
  const where = scope ? ` on dashboard ${sanitize(scope.name)}` : '';
  if (filter.trim()) return `no check${where} matches ${sanitize(filter.trim())}`;
  return scope ? `no check${where}` : 'no check in this account';
}

function fail(message: string): number {
  process.stderr.write(`checkwall status: ${sanitize(message)}\n`);
  return 2;
}

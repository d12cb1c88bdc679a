// `checkwall maintenance`: start, end and list maintenance windows from a deploy
// script. `start` prints the window's id, and only the id when stdout is not a
// terminal (so `id=$(checkwall maintenance start …)` works). Exits 0 on success,
// 2 on a usage, configuration or connection error and on any refusal (400, 403,
// 409…), with the service's message on stderr.
import { readAllPages, type MonitoringClient } from '../api/client.js';
import { describeError, isApiError } from '../api/errors.js';
import type { MaintenanceWindow } from '../api/schemas/maintenance.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { formatClock, formatSpan } from '../domain/format.js';
import { describeScope } from '../domain/maintenance-time.js';
import { sanitize } from '../domain/sanitize.js';
import { parseMaintenanceArgs, type MaintenanceArgs } from './maintenance-args.js';
import { scriptClient } from './settings.js';
import { MAINTENANCE_USAGE } from './usage.js';

export interface MaintenanceIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** A person reads stdout: friendly lines; else only what a script captures. */
  stdoutIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

const processIo = (): MaintenanceIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  env: process.env,
  clock: systemClock,
});

const WHO = 'checkwall maintenance';

export async function runMaintenance(argv: string[], io: MaintenanceIo = processIo()): Promise<number> {
  const parsed = parseMaintenanceArgs(argv);
  if ('error' in parsed) {
    io.stderr(`${WHO}: ${parsed.error}\n\n${MAINTENANCE_USAGE}\n`);
    return 2;
  }
  const client = scriptClient(WHO, parsed.flags, io.env, io.stderr);
  if (!client) return 2;
  try {
    await act(client, parsed, io);
    return 0;
  } catch (error) {
    io.stderr(`${WHO} ${parsed.action}: ${describeError(error)}\n`);
    return 2;
  } finally {
    await client.close();
  }
}

async function act(client: MonitoringClient, args: MaintenanceArgs, io: MaintenanceIo): Promise<void> {
  const now = io.clock.now();
  if (args.action === 'start') {
    const window = await client.createMaintenanceWindow(args.body);
    if (args.json) io.stdout(`${JSON.stringify(window)}\n`);
    else if (io.stdoutIsTTY) io.stdout(`${startedLine(window, now)}\n`);
    else io.stdout(`${sanitize(window.id)}\n`);
  } else if (args.action === 'end') {
    await end(client, args, io);
  } else {
    const windows = await listOpen(client);
    io.stdout(args.json ? `${JSON.stringify(windows)}\n` : `${listLines(windows, now).join('\n')}\n`);
  }
}

/**
 * Ends a window now. One that had ended already is no failure (a deploy that overran its
 * window is not a failed deploy): the service says so by `code`, and when, and that is said.
 */
async function end(client: MonitoringClient, args: { id: string; json: boolean }, io: MaintenanceIo) {
  try {
    const window = await client.patchMaintenanceWindow(args.id, { endsAt: 'now' });
    io.stdout(
      args.json ? `${JSON.stringify(window)}\n` : `ended ${sanitize(window.id)} (${sanitize(window.name)})\n`,
    );
  } catch (error) {
    if (!isApiError(error) || error.code !== 'window_ended') throw error;
    if (args.json) io.stdout(`${JSON.stringify(await client.maintenanceWindow(args.id))}\n`);
    else io.stdout(sanitize(`${args.id} had already ended at ${error.endedAt ?? 'an earlier time'}`) + '\n');
  }
}

/** Active windows, then scheduled ones: every page of each. */
async function listOpen(client: MonitoringClient): Promise<MaintenanceWindow[]> {
  const read = (state: 'active' | 'scheduled') =>
    readAllPages((page) => client.maintenanceWindows({ state, page, limit: 100 })).then((pages) =>
      pages.flatMap((p) => p.data),
    );
  const [active, scheduled] = await Promise.all([read('active'), read('scheduled')]);
  return [...active, ...scheduled];
}

function startedLine(w: MaintenanceWindow, now: number): string {
  const end = w.occurrence?.endsAt ?? w.endsAt;
  const when = w.state === 'scheduled' ? `from ${formatClock(w.startsAt, false)} ` : '';
  return sanitize(
    `${w.id}: ${w.mode} over ${describeScope(w.scope)} ${when}until ${formatClock(end, false)} ` +
      `(${formatSpan(Date.parse(end) - now)} from now): ${w.name}`,
  );
}

/** The checks a window covers now: up to 5 ids, then how many more; `-` from a service that does not say. */
function covering(ids: readonly string[] | undefined): string {
  if (ids === undefined) return '-';
  if (ids.length === 0) return 'none';
  return ids.length <= 5 ? ids.join(',') : `${ids.slice(0, 5).join(',')} +${ids.length - 5}`;
}

export function listLines(windows: readonly MaintenanceWindow[], now: number): string[] {
  if (windows.length === 0) return ['no active or scheduled maintenance windows'];
  const rows = windows.map((w) => {
    const at = w.occurrence ?? w;
    const when =
      w.state === 'active'
        ? `ends in ${formatSpan(Date.parse(at.endsAt) - now)}`
        : `starts in ${formatSpan(Date.parse(at.startsAt) - now)}`;
    // The name defaults to the reason: then it is said once.
    const about = w.name === w.reason ? w.reason : `${w.name}: ${w.reason}`;
    const cells = [w.id, w.state, w.mode, when, describeScope(w.scope), covering(w.coveredChecks)];
    return [...cells, w.createdBy, about].map(sanitize);
  });
  const head = ['ID', 'STATE', 'MODE', 'WHEN', 'SCOPE', 'COVERS', 'BY', 'NAME: REASON'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

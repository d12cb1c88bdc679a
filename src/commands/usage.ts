// Usage texts, kept apart from the commands so `--help` loads nothing heavy.
import { CONNECTION_HELP } from './settings.js';

export const MAIN_USAGE = `checkwall — a live terminal console for a synthetic-monitoring service

Usage:
  checkwall demo                 embedded service with demo targets, and the console on it
  checkwall [console]            the console, on the configured service
  checkwall --public URL         one public dashboard, without credentials
  checkwall wall                 wall-display mode of the console
  checkwall status [--json]      one-shot board for scripts; exit 0 all passing, 1 not, 2 error
  checkwall run CHECK_ID...      run checks now and wait; exit 0 all passed, 1 not, 2 error
  checkwall maintenance ...      start, end or list maintenance windows (for deploy scripts)
  checkwall exec -- COMMAND      runs a job and reports it to its heartbeat check (cron jobs)
  checkwall serve                the service alone
  checkwall runner               runs a remote location's checks for a service elsewhere

Run "checkwall <command> --help" for a command's options.`;

const DISPLAY_HELP = `Display:
  --refresh SECONDS    poll interval (default 10, at least 2)
  --no-color           no colour (also NO_COLOR=1 or FORCE_COLOR=0)
  --ascii              ASCII only: no box drawing or unicode glyphs
  --no-links           no OSC 8 hyperlinks (also FORCE_HYPERLINK=0)`;

export const CONSOLE_USAGE = `Usage: checkwall [console] [options]

The live status board. Keys: ? for help, q to quit.

${CONNECTION_HELP}
  --public URL         open a public dashboard (…/v1/public/dashboards/SLUG) without credentials

${DISPLAY_HELP}`;

export const DEMO_USAGE = `Usage: checkwall demo [options]

Starts the embedded monitoring service on a free loopback port with demo targets
(about twenty checks over three locations) and opens the console on it.

  --db PATH            keep the demo's results in this SQLite file (default: in memory)

${DISPLAY_HELP}`;

export const WALL_USAGE = `Usage: checkwall wall [options]

Wall-display mode: big counts, failing checks first, a clock; pages by itself.

${CONNECTION_HELP}

  --dashboard ID       only the checks of this dashboard
  --filter TOKENS      the board's filter, e.g. "status:failing type:api"
  --cycle SECONDS      page every so many seconds when more fails than fits (default 8)
  --bell               ring the terminal bell once when a check turns failing
  --demo               run it on the embedded demo service
${DISPLAY_HELP}`;

export const STATUS_USAGE = `Usage: checkwall status [options]

Prints every check's status once and exits:
  0 every selected check is passing, 1 any is failing or degraded (or unknown),
  2 a usage, configuration or connection error (the reason on stderr).

${CONNECTION_HELP}

  --json               print {"summary": …, "checks": […]} with every page read
  --filter TOKENS      the board's filter, e.g. "status:failing type:api"
  --dashboard ID       only the checks of this dashboard (id or custom URL)
                       (a filter or dashboard that selects no check exits 2; the
                       summary and the counts are the selected checks')
  --width N            the table's width (default: the terminal's, else COLUMNS,
                       else 200; --json never cuts names)
  --ascii              ASCII only ("-" for no data)
  --no-color           no colour (also when not a terminal, or NO_COLOR is set)`;

export const RUN_USAGE = `Usage: checkwall run [CHECK_ID...] [options]

Runs the selected checks now (once per location), waits for every result and
prints one line per run, for deploy pipelines. Exits:
  0 every run passed, 1 any failed or was skipped (a skipped run proves nothing),
  2 a usage, configuration or connection error, the timeout, or a selection the
    service refused (an unknown check id: the reason on stderr).

${CONNECTION_HELP}

Selection (at least one of check ids, --tag, --group; each flag may repeat):
  --tag TAG            every check with this tag
  --group ID           every check of this group
  --location ID        only at this location (default: every location of each check)

  --timeout DURATION   how long to wait for the results, e.g. 90s, 5m (default 120s)
  --json               print the runs as a JSON array, each with its "outcome"
                       (passed, failed, skipped, unfinished) and "failure"`;

export const MAINTENANCE_USAGE = `Usage:
  checkwall maintenance start (--check ID | --group ID | --tag TAG)... --for DURATION
                              --reason TEXT [--name NAME] [--mode silence|pause]
                              [--allow-empty] [--json]
  checkwall maintenance end ID [--json]
  checkwall maintenance list [--json]

Maintenance windows hold the pages of the checks they cover (silence: the checks
still run and show their true status; pause: they do not run). A window always
ends; a check still failing when it ends pages then.

  start    starts a window now and prints its id; with stdout not a terminal (and
           no --json) only the id, so that  id=$(checkwall maintenance start …)  works.
           --for 30m, 2h, 1d (at most 7 days); --reason is required; --name
           defaults to the reason; --mode silence (default) or pause. A window
           covering no check now is refused (exit 2, no window made) unless
           --allow-empty says it is for checks to come.
  end      ends the window now (a recurring one: its current occurrence only);
           one that had ended already exits 0, saying when it ended.
  list     the active and scheduled windows, with the checks each covers now.
  --json   print the window (start, end) or the windows (list) as JSON.

Exits 0 on success, 2 on a usage, configuration or connection error and on any
refusal of the service (400, 403, 409: its message on stderr).

${CONNECTION_HELP}`;

/** Turns a parseArgs failure into the one-line error and usage every command prints. */
export function usageError(command: string, error: unknown, usage: string): number {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`checkwall ${command}: ${message}\n\n${usage}\n`);
  return 2;
}

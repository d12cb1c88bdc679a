// `checkwall serve`: the service alone, until SIGINT or SIGTERM.
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  applyEnvAccount,
  applyEnvRunnerTokens,
  ConfigError,
  configWarnings,
  publicUrlWarning,
  configFileWarning,
  loadConfigFile,
} from '../server/config/load.js';
import { STOP_GRACE_MS } from '../server/alerting/dispatcher.js';
import { ServiceConfigSchema, type ServiceConfig } from '../server/config/schema.js';
import { startDemo, type Demo } from '../server/demo/index.js';
import { watchConfig } from '../server/config/watch.js';
import { backlogLine } from '../server/schedule/run-accounting.js';
import { createService, type Service } from '../server/service/index.js';
import { dbKind, describeDb } from '../server/storage/open.js';

const BACKLOG_EVERY_MS = 60_000;

export const SERVE_USAGE = `Usage: checkwall serve [options]

Runs the monitoring service: real checks on a schedule, results in SQLite or
PostgreSQL, and the JSON HTTP interface under /v1.

  --host HOST              address to listen on (default 127.0.0.1)
  --port PORT              port (default 8787; 0 picks a free one)
  --db PATH|URL            SQLite file, :memory:, or postgres://user:pass@host:port/db
                           (default $CHECKWALL_DATABASE_URL, else $XDG_DATA_HOME/checkwall/checkwall.db)
  --config FILE            YAML or JSON config: accounts, locations, checks, dashboards, channels
  --demo                   demo targets and checks on loopback (fixed demo credentials, printed)
  --max-alert-channels N   plan limit on alert channels per account (default 10)

Several serve processes on one PostgreSQL database share the work: each run and
each notification is taken by one of them.

CHECKWALL_ACCOUNT_ID and CHECKWALL_API_KEY, when both are set, are the account
the service accepts (they replace the first account of the config or the demo).
A location with remote: true is run only by \`checkwall runner\` processes; its
runner token is its runnerToken, or CHECKWALL_RUNNER_TOKEN_<ID> (the location id
in capitals, other characters as _: eu-west is CHECKWALL_RUNNER_TOKEN_EU_WEST).

SIGHUP, or a change to the --config file, reloads it: checks added, changed,
disabled or removed take effect at once, stored results are kept and runs in
flight finish; an invalid config is refused and the running one stays.
SIGINT or SIGTERM stops it: runs in flight are abandoned, pages under way have
5 s to finish (then go again at the next start), everything stored is kept.
Exit status: 0 after a clean stop, 1 when it cannot start (database, address in
use), 2 for bad options or a bad config.`;

export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  // The XDG spec: a relative XDG_DATA_HOME is invalid and ignored.
  const xdg = env['XDG_DATA_HOME'];
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'share');
  return join(base, 'checkwall', 'checkwall.db');
}

/** A reason to stop before serving: the message, the exit status, whether to add the usage. */
class Exit extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

type Flags = ReturnType<typeof parse>;

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8787' },
      db: { type: 'string' },
      config: { type: 'string' },
      demo: { type: 'boolean', default: false },
      'max-alert-channels': { type: 'string' },
    },
  }).values;
}

function parseFlags(argv: string[]): Flags {
  try {
    const flags = parse(argv);
    if (!/^\d+$/.test(flags.port) || Number(flags.port) > 65535)
      throw new Error(`--port must be 0-65535, got "${flags.port}"`);
    const max = flags['max-alert-channels'];
    if (max !== undefined && !/^\d+$/.test(max))
      throw new Error(`--max-alert-channels must be a whole number, got "${max}"`);
    if (flags.db !== undefined) dbKind(flags.db);
    return flags;
  } catch (error) {
    throw new Exit(2, (error as Error).message, true);
  }
}

/**
 * --db, else CHECKWALL_DATABASE_URL, else the default file. A value that names no
 * database is refused here, naming only a URL's scheme (the rest may hold a password).
 */
function dbSpec(flags: Flags, env: NodeJS.ProcessEnv): string {
  if (flags.db !== undefined) return flags.db;
  const fromEnv = env['CHECKWALL_DATABASE_URL'];
  if (!fromEnv) return defaultDbPath(env);
  try {
    dbKind(fromEnv, 'CHECKWALL_DATABASE_URL');
  } catch (error) {
    throw new Exit(2, (error as Error).message);
  }
  return fromEnv;
}

function buildConfig(flags: Flags, demo: Demo | undefined, env: NodeJS.ProcessEnv): ServiceConfig {
  if (Boolean(env['CHECKWALL_ACCOUNT_ID']) !== Boolean(env['CHECKWALL_API_KEY']))
    throw new Exit(2, 'set both CHECKWALL_ACCOUNT_ID and CHECKWALL_API_KEY, or neither');
  let config: ServiceConfig;
  try {
    config = flags.config ? loadConfigFile(flags.config) : (demo?.config ?? ServiceConfigSchema.parse({}));
    config = applyEnvRunnerTokens(applyEnvAccount(config, env), env);
  } catch (error) {
    throw new Exit(2, error instanceof ConfigError ? error.message : String(error));
  }
  const max = flags['max-alert-channels'];
  if (max !== undefined)
    config = { ...config, accounts: config.accounts.map((a) => ({ ...a, maxAlertChannels: Number(max) })) };
  if (config.accounts.length === 0)
    throw new Exit(
      2,
      flags.config
        ? `${flags.config} has no accounts: add one under accounts:, or set CHECKWALL_ACCOUNT_ID and CHECKWALL_API_KEY`
        : 'no accounts: pass --config FILE, --demo, or set CHECKWALL_ACCOUNT_ID and CHECKWALL_API_KEY',
    );
  return config;
}

export async function runServe(argv: string[]): Promise<number> {
  const env = process.env;
  let demo: Demo | undefined;
  try {
    const flags = parseFlags(argv);
    // The demo starts with its fixed credentials; the environment replaces them in buildConfig.
    if (flags.demo) demo = await startDemo({});
    const config = buildConfig(flags, demo, env);
    for (const line of [...configWarnings(config), ...publicUrlWarning(config)]) warn(`warning: ${line}`);
    const open = flags.config ? configFileWarning(flags.config, config) : null;
    if (open) warn(open);
    const dbPath = dbSpec(flags, env);
    const service = await createService({ config, dbPath, host: flags.host, port: Number(flags.port) }).catch(
      (error: Error) => Promise.reject(new Exit(1, error.message)),
    );
    // Listened for before the listening line, so a stop sent as soon as it is read is a stop.
    // The first signal stops it; a second, of either kind, ends the process at once (Node's
    // own handling) rather than wait for the pages' grace.
    const signalled = new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    demo?.startPinger(service.url);
    const reloads = watchReloads(flags, demo, env, service);
    const backlog = logBacklog(service);
    say(`listening on ${service.url}`);
    if (service.metricsUrl) say(`metrics of every account, with no key, on ${service.metricsUrl}`);
    say(`database ${describeDb(dbPath)}`);
    const warning = await service.alerting.warning();
    if (warning) process.stderr.write(`checkwall serve: warning: ${warning}\n`);
    if (demo) printDemoCredentials(service.url, config, demo);
    await signalled;
    say(
      `stopping (in-flight runs are abandoned, pages under way have ${STOP_GRACE_MS / 1000} s to finish, stored results are kept)`,
    );
    const underWay = service.alerting.underWay();
    if (underWay > 0)
      say(
        `waiting up to ${STOP_GRACE_MS / 1000} s for ${underWay} message${underWay === 1 ? '' : 's'} under way (a second signal stops at once)`,
      );
    reloads.close();
    clearInterval(backlog);
    await service.close();
    return 0;
  } catch (error) {
    if (!(error instanceof Exit)) throw error;
    process.stderr.write(`checkwall serve: ${error.message}\n${error.usage ? `\n${SERVE_USAGE}\n` : ''}`);
    return error.status;
  } finally {
    await demo?.close();
  }
}

const say = (line: string) => process.stdout.write(`checkwall serve: ${line}\n`);
const warn = (line: string) => process.stderr.write(`checkwall serve: ${line}\n`);

/** SIGHUP and changes to --config reload it; without --config, SIGHUP says there is nothing to reload. */
function watchReloads(flags: Flags, demo: Demo | undefined, env: NodeJS.ProcessEnv, service: Service) {
  if (flags.config === undefined) {
    const nothing = () => warn('SIGHUP: nothing to reload (started without --config)');
    process.on('SIGHUP', nothing);
    return { close: () => void process.off('SIGHUP', nothing) };
  }
  const watch = watchConfig({
    path: flags.config,
    load: () => buildConfig(flags, demo, env),
    apply: (config) => service.reload(config),
    log: say,
    warn,
    announce: (version) => service.announceConfig(version),
  });
  service.onPeerConfig((version) => watch.fromPeer(version));
  return watch;
}

/** Once a minute while runs are skipped or waiting, a line saying how far behind the service is. */
function logBacklog(service: Service): NodeJS.Timeout {
  let before = service.runStats();
  return setInterval(() => {
    const now = service.runStats();
    const line = backlogLine(before, now);
    if (line) warn(line);
    before = now;
  }, BACKLOG_EVERY_MS).unref();
}

/** The fixed demo key is printed; a key from the environment is the user's secret and is not. */
function printDemoCredentials(url: string, config: ServiceConfig, demo: Demo) {
  const account = config.accounts[0]!;
  const key =
    account.apiKeys[0]?.key === demo.credentials.apiKey ? demo.credentials.apiKey : '(from your environment)';
  process.stdout.write(
    `demo credentials:\n  CHECKWALL_BASE_URL=${url}\n  CHECKWALL_ACCOUNT_ID=${account.id}\n  CHECKWALL_API_KEY=${key}\n`,
  );
}

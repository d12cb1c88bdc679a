// A throw-away PostgreSQL cluster for the tests and benches that need one: initdb
// in a temp directory, pg_ctl on a free loopback port, no unix socket, trust on
// 127.0.0.1 (and one password-checked role, for the tests of a wrong password). Run
// as the `postgres` user when we are root (initdb refuses root). Without PostgreSQL
// the tests fail, naming what installs it: they never skip. No vitest here (the
// benches import it); postgres.ts adds the test-file hooks.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  appendFileSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export const PASSWORD_ROLE = { user: 'cw_password', password: 'pw-s3cret-42' };

export interface TestCluster {
  readonly port: number;
  /** The cluster's data directory (postmaster.pid names the server's process). */
  readonly dataDir: string;
  /** The superuser's URL to a database (trust auth). */
  url(database: string): string;
  /** A new empty database, its URL. */
  freshDatabase(): Promise<string>;
  /** Stops the server, keeping its data: what a service sees while its database is down. */
  pause(): Promise<void>;
  /** Starts the paused server again on the same port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** initdb's directory: $CHECKWALL_PG_BIN, Debian's newest /usr/lib/postgresql/N/bin, or PATH. */
export function findPgBin(): string {
  const fromEnv = process.env['CHECKWALL_PG_BIN'];
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return join(debian, versions[0], 'bin');
  const onPath = (process.env['PATH'] ?? '').split(delimiter).find((d) => d && existsSync(join(d, 'initdb')));
  if (onPath) return onPath;
  throw new Error(
    'PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin, $CHECKWALL_PG_BIN or PATH): ' +
      'the PostgreSQL storage tests need it. .ci/run installs it; on Debian or Ubuntu: apt-get install postgresql',
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startCluster(): Promise<TestCluster> {
  const bin = findPgBin();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-pg-'));
  // As root, the cluster runs as `postgres`: initdb and postgres refuse to run as root.
  const as = async (cmd: string, args: string[]) =>
    root ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args);
  try {
    return await initAndStart(bin, dir, as);
  } catch (error) {
    await as('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

type As = (cmd: string, args: string[]) => Promise<unknown>;

async function initAndStart(bin: string, dir: string, as: As): Promise<TestCluster> {
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) await run('chown', ['postgres:', dir]);
  await as('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--no-locale',
  ]);
  const port = await freePort();
  appendFileSync(
    join(data, 'postgresql.conf'),
    `\nlisten_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = ''\n` +
      'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 200\n' +
      // A bench's look at where PostgreSQL's time goes (bench/scale-count.ts topStatements).
      (process.env.CHECKWALL_BENCH_LOGS ? "shared_preload_libraries = 'pg_stat_statements'\n" : ''),
  );
  // First match wins: the password role is checked, everyone else trusted.
  const hba = join(data, 'pg_hba.conf');
  writeFileSync(
    hba,
    `host all ${PASSWORD_ROLE.user} 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`,
  );
  await as('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const connectAdmin = async () => {
    const client = new pg.Client({ connectionString: url('postgres') });
    // A paused server drops it: the next resume connects anew.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  let admin = await connectAdmin();
  await admin.query(`CREATE ROLE ${PASSWORD_ROLE.user} LOGIN SUPERUSER PASSWORD '${PASSWORD_ROLE.password}'`);
  let databases = 0;
  return {
    port,
    dataDir: data,
    url,
    async freshDatabase() {
      const name = `t_${++databases}`;
      await admin.query(`CREATE DATABASE ${name}`);
      return url(name);
    },
    async pause() {
      await admin.end().catch(() => undefined);
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async resume() {
      await as('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
      admin = await connectAdmin();
    },
    async stop() {
      await admin.end().catch(() => undefined);
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

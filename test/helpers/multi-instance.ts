// Several `checkwall serve` instances on one PostgreSQL database (issue 12): the
// config they share, what one instance says of a check's locations, and the
// database's own count of results per check x location x due time.
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { CheckStatusListSchema, type CheckStatus } from '../../src/api/schemas/index.js';
import { tempDir } from './serve.js';
import { TEST_ACCOUNT, TEST_KEY } from './service.js';

export const EAST_TOKEN = 'runner-token-east-0123456789';
export const WEST_TOKEN = 'runner-token-west-0123456789';

const LOCATIONS = [
  { id: 'east', name: 'East', region: 'us-east', remote: true, runnerToken: EAST_TOKEN },
  { id: 'west', name: 'West', region: 'us-west', remote: true, runnerToken: WEST_TOKEN },
  { id: 'home', name: 'Home', region: 'here' },
];

export interface SharedCheck {
  id: string;
  name: string;
  frequency: string;
  locations: string[];
}

/** The config's JSON: one account, two remote locations and a local one, these api checks on `target`. */
export function sharedConfig(target: string, checks: SharedCheck[]): string {
  const config = {
    accounts: [
      {
        id: TEST_ACCOUNT,
        apiKeys: [TEST_KEY],
        locations: LOCATIONS,
        checks: checks.map((c) => ({ ...c, type: 'api', target: `${target}/${c.id}`, timeoutMs: 10_000 })),
      },
    ],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * One config as two instances read it, deployed as a symlink swap: `a` is a link to
 * the current version in its directory, `b` a link to `a` in another. `deploy` writes
 * a new version and points `a` at it. Each instance watches the file its path leads to
 * (config/watch.ts), which a swap leaves untouched: neither watch sees a deploy, so
 * the test tells A (SIGHUP) and B learns of it from A's announcement.
 */
export function sharedConfigFile(text: string): { a: string; b: string; deploy(text: string): void } {
  const root = tempDir();
  mkdirSync(join(root, 'a'));
  mkdirSync(join(root, 'b'));
  const a = join(root, 'a', 'checkwall.json');
  const b = join(root, 'b', 'checkwall.json');
  let version = 1;
  const write = (next: string) => {
    const file = join(root, 'a', `checkwall.v${version}.json`);
    writeFileSync(file, next);
    const link = join(root, 'a', `.checkwall.json.v${version++}`);
    symlinkSync(file, link);
    renameSync(link, a);
  };
  write(text);
  symlinkSync(a, b);
  return { a, b, deploy: write };
}

const headers = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

/** Every check's status as this instance serves it. */
export async function statuses(url: string): Promise<CheckStatus[]> {
  const res = await fetch(`${url}/v1/check-statuses?limit=100&sortBy=name`, { headers });
  if (!res.ok) throw new Error(`GET /v1/check-statuses on ${url}: ${res.status} ${await res.text()}`);
  return CheckStatusListSchema.parse(await res.json()).data;
}

/** One check's location as this instance serves it (undefined while the check is unknown there). */
export async function locationStatus(url: string, checkId: string, locationId: string) {
  const check = (await statuses(url)).find((c) => c.checkId === checkId);
  return check?.locations.find((l) => l.id === locationId);
}

export interface RunCount {
  checkId: string;
  locationId: string;
  /** Null for a result stored outside the run queue (no scheduled run has its id). */
  dueAt: number | null;
  results: number;
}

/** Results per check x location x due time, read from the database itself. */
export async function resultsPerDueTime(databaseUrl: string): Promise<RunCount[]> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<RunCount>(
      `SELECT r.check_id AS "checkId", r.location_id AS "locationId", q.due_at::float8 AS "dueAt",
         count(*)::int AS results
       FROM results r LEFT JOIN runs q ON q.id = r.id
       GROUP BY r.check_id, r.location_id, q.due_at, CASE WHEN q.id IS NULL THEN r.id END`,
    );
    return rows;
  });
}

/** The newest result's start per location of a check (epoch ms), read from the database. */
export async function newestPerLocation(databaseUrl: string, checkId: string): Promise<Map<string, number>> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ locationId: string; newest: number }>(
      `SELECT location_id AS "locationId", max(started_at)::float8 AS newest FROM results
       WHERE check_id = $1 GROUP BY location_id`,
      [checkId],
    );
    return new Map(rows.map((r) => [r.locationId, r.newest]));
  });
}

/** Who ran a location's runs (skipped ones never ran): each instance's scheduler holds them as `instance-<uuid>`. */
export async function runHolders(
  databaseUrl: string,
  checkId: string,
  locationId: string,
): Promise<string[]> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ holder: string }>(
      `SELECT DISTINCT split_part(token, ':', 1) AS holder FROM runs
       WHERE check_id = $1 AND location_id = $2 AND completed_at IS NOT NULL AND skipped IS NULL ORDER BY 1`,
      [checkId, locationId],
    );
    return rows.map((r) => r.holder);
  });
}

async function withClient<T>(databaseUrl: string, query: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await query(client);
  } finally {
    await client.end();
  }
}

// Issue 12 end to end on one machine: a throw-away PostgreSQL, two `checkwall
// serve` instances on it, two `checkwall runner` processes for two remote
// locations plus a local location run by the instances themselves, a loopback
// target, and the console in tmux. Every part is the built program as a real
// process. The runners talk to instance B; the console to instance A, which
// learns of them only through the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../helpers/fixture.js';
import {
  EAST_TOKEN,
  locationStatus,
  newestPerLocation,
  resultsPerDueTime,
  runHolders,
  sharedConfig,
  sharedConfigFile,
  statuses,
  WEST_TOKEN,
  type SharedCheck,
} from '../helpers/multi-instance.js';
import { testPostgres } from '../helpers/postgres.js';
import { killRunners, startRunner, until, type RunnerProcess } from '../helpers/runner.js';
import { killStrays, startServe, type ServeProcess } from '../helpers/serve.js';
import { TEST_ACCOUNT, TEST_KEY } from '../helpers/service.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

const pg = testPostgres();

const STOREFRONT: SharedCheck = {
  id: 'store',
  name: 'Storefront',
  frequency: '2s',
  locations: ['east', 'west', 'home'],
};
const ADDED: SharedCheck = { id: 'added', name: 'Added later', frequency: '2s', locations: ['home'] };

// Generous: a loaded 2-core machine runs this next to other suites.
const SLOW = 45_000;

let db: string;
let target: Fixture;
let files: ReturnType<typeof sharedConfigFile>;
let a: ServeProcess;
let b: ServeProcess;
let east: RunnerProcess;
let west: RunnerProcess;
let term: Terminal | undefined;

const serve = (config: string) => startServe(['--port', '0', '--db', db, '--config', config], {}, 30_000);
const runner = (location: 'east' | 'west', token: string) =>
  startRunner(b.url, { location, token, id: `runner-${location}` });

beforeAll(async () => {
  db = await pg.freshDatabase();
  target = await startFixture((_req, res) => res.writeHead(200).end('ok'));
  files = sharedConfigFile(sharedConfig(target.url, [STOREFRONT]));
  // One at a time: the first migrates the database.
  a = await serve(files.a);
  b = await serve(files.b);
  east = runner('east', EAST_TOKEN);
  west = runner('west', WEST_TOKEN);
  await east.waitFor(/connected to .* for location east/, SLOW);
  await west.waitFor(/connected to .* for location west/, SLOW);
}, 120_000);

afterAll(async () => {
  term?.kill();
  killRunners();
  killStrays();
  await target?.close();
});

/** Waits until instance `url` says this of the location (status and reason). */
async function untilLocation(
  url: string,
  locationId: string,
  want: { status: string; reason?: string },
  timeoutMs = SLOW,
) {
  let seen: unknown;
  await until(
    async () => {
      const l = (seen = await locationStatus(url, STOREFRONT.id, locationId));
      return l?.status === want.status && l.statusReason === want.reason;
    },
    timeoutMs,
    () => `${locationId} on ${url} never became ${JSON.stringify(want)}; last: ${JSON.stringify(seen)}`,
  );
}

describe.skipIf(!hasTmux)('two instances on PostgreSQL, two remote runners and a local location', () => {
  it('the console on instance A shows the three locations passing, the remote ones with their runner', async () => {
    // Instance A has no runner of its own: it knows them from the database.
    for (const where of ['east', 'west', 'home']) await untilLocation(a.url, where, { status: 'passing' });
    term = startTerminal(`${process.execPath} bin/checkwall.js console --refresh 2`, {
      cols: 140,
      rows: 40,
      env: {
        CHECKWALL_BASE_URL: a.url,
        CHECKWALL_API_KEY: TEST_KEY,
        CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
        XDG_CONFIG_HOME: '/nonexistent-checkwall',
      },
    });
    await term.waitFor(/passing\s+Storefront/, SLOW);
    term.sendKeys('Enter');
    const screen = await term.waitFor(/Home \(home\)\s+✔ passing/, SLOW);
    expect(screen).toMatch(/East \(east\)\s+✔ passing/);
    expect(screen).toMatch(/West \(west\)\s+✔ passing/);
    expect(screen.match(/remote · seen \d+s ago/g)).toHaveLength(2);
  }, 120_000);

  it('a killed runner turns its location unknown with the reason, on the screen too; restarted, it is back', async () => {
    west.child.kill('SIGKILL');
    await west.exited;
    await untilLocation(a.url, 'west', { status: 'unknown', reason: 'no runner connected for West' });
    await untilLocation(b.url, 'west', { status: 'unknown', reason: 'no runner connected for West' });
    // Its results go stale a moment before its silence counts: wait for the reason, not the word.
    const screen = await term!.waitFor(
      /West \(west\)\s+\? UNKNOWN.*\n\s+remote · seen \d+s ago · no runner connected for West/,
      SLOW,
    );
    // The other locations are not dragged along.
    expect(screen).toMatch(/East \(east\)\s+✔ passing/);
    expect(screen).toMatch(/Home \(home\)\s+✔ passing/);

    west = runner('west', WEST_TOKEN);
    await west.waitFor(/connected to .* for location west/, SLOW);
    await untilLocation(a.url, 'west', { status: 'passing' });
    await untilLocation(b.url, 'west', { status: 'passing' });
    await term!.waitFor(/West \(west\)\s+✔ passing/, SLOW);
    expect(term!.capture()).not.toContain('no runner connected');
  }, 150_000);

  it('a config edit seen by instance A alone reaches instance B through A’s announcement', async () => {
    files.deploy(sharedConfig(target.url, [STOREFRONT, ADDED]));
    a.child.kill('SIGHUP');
    await until(
      () => a.stdout().includes('config reloaded (SIGHUP): 1 check added'),
      SLOW,
      () => `instance A did not reload:\n${a.stdout()}\n${a.stderr()}`,
    );
    await until(
      () => /config reloaded \(another instance reloaded [0-9a-f]{12}\): 1 check added/.test(b.stdout()),
      SLOW,
      () => `instance B did not reload on A's announcement:\n${b.stdout()}\n${b.stderr()}`,
    );
    // B's own watch never saw the edit (a symlink swap leaves the file it watches untouched).
    expect(b.stdout()).not.toContain('checkwall.json changed');
    for (const instance of [a, b])
      await until(
        async () =>
          (await statuses(instance.url)).some((c) => c.checkId === ADDED.id && c.lastExecution !== null),
        SLOW,
        () => `${instance.url} never showed a run of the added check`,
      );
  }, 120_000);

  it('instance A killed: B keeps every location moving, and no run is stored twice', async () => {
    term?.kill();
    term = undefined;
    a.child.kill('SIGKILL');
    await a.exited;
    const killedAt = Date.now();
    // B's statuses keep coming: a newer execution, and new results at every location.
    await until(
      async () => {
        const store = (await statuses(b.url)).find((c) => c.checkId === STOREFRONT.id);
        return Date.parse(store?.lastExecution?.timestamp ?? '') > killedAt + 4_000;
      },
      SLOW,
      () => 'instance B shows no execution since A was killed',
    );
    let newest = new Map<string, number>();
    await until(
      async () => {
        newest = await newestPerLocation(db, STOREFRONT.id);
        return ['east', 'west', 'home'].every((l) => (newest.get(l) ?? 0) > killedAt);
      },
      SLOW,
      () => `not every location ran since A was killed: ${JSON.stringify([...newest])}`,
    );
    for (const where of ['east', 'west', 'home']) await untilLocation(b.url, where, { status: 'passing' });

    const counts = await resultsPerDueTime(db);
    expect(counts.filter((c) => c.dueAt === null)).toEqual([]); // every result is a scheduled run's
    expect(counts.filter((c) => c.results !== 1)).toEqual([]);
    const byPair = (check: string, location: string) =>
      counts.filter((c) => c.checkId === check && c.locationId === location).length;
    for (const where of ['east', 'west', 'home']) expect(byPair(STOREFRONT.id, where)).toBeGreaterThan(3);
    expect(byPair(ADDED.id, 'home')).toBeGreaterThan(0);
    // The local location's runs were shared out: both instances completed some.
    const home = await runHolders(db, STOREFRONT.id, 'home');
    expect(home.filter((h) => h.startsWith('instance-'))).toHaveLength(2);
    expect(await runHolders(db, STOREFRONT.id, 'east')).toEqual(['runner-east']);
    expect(await b.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});

// What only PostgreSQL storage has to do (issue #12), against a real throw-away
// cluster: instances sharing one database never claim one notification or run
// twice, leases run out, late reports store nothing, results and alerts are heard
// across instances, migrations race safely, and a bad URL says what is wrong
// without the password. The behaviour both storages share is test/server/storage.test.ts.
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeEvent } from '../../../src/server/storage/pg/changes.js';
import { openPgStorage, type PgStorage } from '../../../src/server/storage/pg/index.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../../../src/server/storage/pg/schema.js';
import { dbKind, describeDb, openStorage } from '../../../src/server/storage/open.js';
import type { NewNotification, RunKey } from '../../../src/server/storage/types.js';
import { PASSWORD_ROLE, testPostgres } from '../../helpers/postgres.js';
import { sampleResult } from '../../helpers/samples.js';

const A = 'account-a';
const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const LEASE = 60_000;

const postgres = testPostgres();
const opened: PgStorage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** `count` storage instances (pools) on one fresh database, as several `checkwall serve` would be. */
async function instances(count: number): Promise<PgStorage[]> {
  const url = await postgres.freshDatabase();
  const out = await Promise.all(Array.from({ length: count }, () => openPgStorage(url, { poolSize: 4 })));
  opened.push(...out);
  return out;
}

const result = (id: string, minute: number, checkId = 'c1') =>
  sampleResult(id, { checkId, startedAt: new Date(T0 + minute * 60_000).toISOString() });

/** Claims with every instance at once, round after round, until none gets anything. */
async function drain<T extends { id: string }>(
  all: PgStorage[],
  claim: (s: PgStorage, round: number) => Promise<T[]>,
): Promise<T[][]> {
  const got: T[][] = all.map(() => []);
  for (let round = 0; ; round++) {
    const batch = await Promise.all(all.map((s) => claim(s, round)));
    batch.forEach((rows, i) => got[i]!.push(...rows));
    if (batch.every((rows) => rows.length === 0)) return got;
  }
}

describe('PostgreSQL storage: the outbox shared by instances', () => {
  const notification = (id: string, channelId: number): NewNotification => ({
    id,
    channelId,
    // A check each: one check's notices to a channel are claimed one at a time (outbox-order.test.ts).
    checkId: `c-${id}`,
    alertId: null,
    event: 'test',
    status: 'pending',
    payload: { n: id },
  });

  async function withChannels(s: PgStorage, count: number) {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const made = await s.createChannel(
        A,
        { type: 'EMAIL', name: `e${i}`, config: { address: 'a@b.co' } },
        10,
        T0,
      );
      if (made.ok) ids.push(made.channel.id);
    }
    return ids;
  }

  it('gives each due notification to exactly one of three instances claiming at once', async () => {
    const all = await instances(3);
    const channels = await withChannels(all[0]!, 3);
    for (let i = 0; i < 60; i++)
      await all[0]!.enqueueNotification(A, notification(`n${i}`, channels[i % 3]!), T0);
    const got = await drain(all, (s) => s.claimNotifications(T0, LEASE, 4, []));
    const ids = got.flat().map((n) => n.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    expect(got.flat().every((n) => n.attempts === 1 && n.channelName.startsWith('e'))).toBe(true);
  });

  it('leaves busy channels alone, and gives a notification again once its lease ran out', async () => {
    const [s] = await instances(1);
    const [busy, free] = await withChannels(s!, 2);
    await s!.enqueueNotification(A, notification('on-busy', busy!), T0);
    await s!.enqueueNotification(A, notification('on-free', free!), T0);
    expect((await s!.claimNotifications(T0, LEASE, 10, [busy!])).map((n) => n.id)).toEqual(['on-free']);
    expect(await s!.claimNotifications(T0 + LEASE - 1, LEASE, 10, [busy!])).toEqual([]);
    const again = await s!.claimNotifications(T0 + LEASE, LEASE, 10, [busy!]);
    expect(again.map((n) => [n.id, n.attempts])).toEqual([['on-free', 2]]);
  });

  it('lets one of two instances claim a notification by id', async () => {
    const all = await instances(2);
    const [channel] = await withChannels(all[0]!, 1);
    await all[0]!.enqueueNotification(A, notification('only', channel!), T0);
    const claims = await Promise.all(all.map((s) => s.claimNotification('only', T0, LEASE)));
    expect(claims.filter((c) => c !== null).map((c) => c!.id)).toEqual(['only']);
  });
});

describe('PostgreSQL storage: channels', () => {
  it('keeps the plan limit when instances create channels at once', async () => {
    const all = await instances(3);
    const made = await Promise.all(
      [...all, ...all].map((s, i) =>
        s.createChannel(A, { type: 'EMAIL', name: `e${i}`, config: { address: 'a@b.co' } }, 2, T0),
      ),
    );
    expect(made.filter((m) => m.ok)).toHaveLength(2);
    expect(made.filter((m) => !m.ok)).toEqual(Array(4).fill({ ok: false, reason: 'limit', limit: 2 }));
    expect(await all[2]!.countChannels(A)).toBe(2);
  });
});

describe('PostgreSQL storage: the run queue', () => {
  const key = (minute: number, locationId = 'eu-west'): RunKey => ({
    accountId: A,
    checkId: 'c1',
    locationId,
    dueAt: T0 + minute * 60_000,
  });

  it('records an offered run once, whichever of three instances offers it', async () => {
    const all = await instances(3);
    const offers = await Promise.all(
      all.map((s, i) => s.offerRun(key(0), T0, { token: `instance-${i}`, leaseMs: LEASE })),
    );
    const made = offers.filter((o) => o !== null);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ ...key(0), attempt: 1, leaseUntil: T0 + LEASE });
    expect(await all[0]!.claimRuns(A, 'eu-west', 'runner', T0 + 1, LEASE, 10)).toEqual([]);
  });

  it('gives each waiting run to exactly one of three runners claiming at once, oldest due first', async () => {
    const all = await instances(3);
    // 45 checks' runs: of one check x location's due runs only the newest is given (issue 32).
    for (let m = 0; m < 45; m++)
      expect(await all[0]!.offerRun({ ...key(m), checkId: `c${m}` }, T0)).toMatchObject({ attempt: 0 });
    await all[0]!.offerRun(key(0, 'us-east'), T0);
    const got = await drain(all, (s, round) =>
      s.claimRuns(A, 'eu-west', `runner-${round}`, T0 + 45 * 60_000, LEASE, 4),
    );
    const ids = got.flat().map((r) => r.id);
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
    for (const mine of got) {
      const due = mine.map((r) => r.dueAt);
      expect(due).toEqual([...due].sort((a, b) => a - b));
    }
  });

  it('gives a run again when its lease ran out, and stores only the holder’s report, once', async () => {
    const [s] = await instances(1);
    await s!.offerRun(key(0), T0);
    const [first] = await s!.claimRuns(A, 'eu-west', 'slow', T0, LEASE, 1);
    expect(first).toMatchObject({ token: 'slow', attempt: 1, leaseUntil: T0 + LEASE });
    expect(await s!.claimRuns(A, 'eu-west', 'fast', T0 + LEASE - 1, LEASE, 1)).toEqual([]);
    const [second] = await s!.claimRuns(A, 'eu-west', 'fast', T0 + LEASE, LEASE, 1);
    expect(second).toMatchObject({ id: first!.id, token: 'fast', attempt: 2 });

    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
    expect(await s!.completeRun(first!.id, 'slow', A, result('late', 0), png)).toBe(false);
    expect(await s!.latestResult(A, 'c1')).toBeNull();
    expect(await s!.screenshot(A, 'c1', 'late')).toBeNull();
    expect(await s!.completeRun(second!.id, 'fast', A, result('ok', 0), png)).toBe(true);
    expect(await s!.latestResult(A, 'c1')).toEqual(result('ok', 0));
    expect([...(await s!.screenshot(A, 'c1', 'ok'))!]).toEqual([...png]);
    expect(await s!.completeRun(second!.id, 'fast', A, result('twice', 1))).toBe(false);
    expect(await s!.claimRuns(A, 'eu-west', 'any', T0 + 10 * LEASE, LEASE, 1)).toEqual([]);
    expect(await s!.findRun(second!.id)).toMatchObject({
      token: 'fast',
      attempt: 2,
      completedAt: expect.any(Number),
    });
    expect(await s!.pruneRuns(T0 + 1)).toBe(1);
    expect(await s!.findRun(second!.id)).toBeNull();
  });

  it('keeps the newest contact of each runner', async () => {
    const [s] = await instances(1);
    const seen = (runnerId: string, lastSeenAt: number) => ({
      accountId: A,
      locationId: 'eu-west',
      runnerId,
      lastSeenAt,
    });
    await s!.recordRunnerSeen(seen('r1', T0 + 5));
    await s!.recordRunnerSeen(seen('r1', T0 + 1)); // a late, older report
    await s!.recordRunnerSeen(seen('r2', T0));
    expect(await s!.runnersSeen()).toEqual([seen('r1', T0 + 5), seen('r2', T0)]);
  });
});

describe('PostgreSQL storage: changes heard across instances', () => {
  /** The next event `s` hears that matches; the test's timeout is the failure. */
  const next = (s: PgStorage, match: (e: ChangeEvent) => boolean) =>
    new Promise<ChangeEvent>((resolve) => {
      const off = s.changes.listen((e) => {
        if (!match(e)) return;
        void off.then((stop) => stop());
        resolve(e);
      });
    });

  it('tells another instance of a stored result, an alert and a config change', async () => {
    const [a, b] = await instances(2);
    // LISTEN is in place before anything is sent.
    await Promise.all([a!.changes.listen(() => undefined), b!.changes.listen(() => undefined)]);
    const heardResult = next(b!, (e) => e.kind === 'result');
    await a!.insertResult(A, result('r1', 0, 'c7'));
    // The result itself comes along (it fits a NOTIFY): the other instance reads nothing back.
    expect(await heardResult).toEqual({
      kind: 'result',
      accountId: A,
      checkId: 'c7',
      result: result('r1', 0, 'c7'),
      fromSelf: false,
    });
    // Too large for a NOTIFY: only which check, and the other instance reads it.
    const heardLarge = next(b!, (e) => e.kind === 'result');
    const large = result('r-large', 1, 'c7');
    await a!.insertResult(A, { ...large, response: { ...large.response!, body: 'x'.repeat(10_000) } });
    expect(await heardLarge).toEqual({ kind: 'result', accountId: A, checkId: 'c7', fromSelf: false });

    const heardAlert = next(b!, (e) => e.kind === 'alert');
    await a!.applyAlertChange(A, {
      checkId: 'c7',
      at: T0,
      openAlert: {
        id: 'al1',
        checkId: 'c7',
        incidentId: null,
        openedAt: T0,
        resolvedAt: null,
        acknowledgedAt: null,
        remindersSent: 0,
        lastNotifiedAt: T0,
      },
      notifications: [],
    });
    expect(await heardAlert).toEqual({ kind: 'alert', accountId: A, checkId: 'c7', fromSelf: false });

    const heardConfig = next(b!, (e) => e.kind === 'config');
    const heardByItself = next(a!, (e) => e.kind === 'config');
    await a!.changes.publishConfig('v2');
    expect(await heardConfig).toEqual({ kind: 'config', version: 'v2', fromSelf: false });
    expect(await heardByItself).toEqual({ kind: 'config', version: 'v2', fromSelf: true });
  });

  it('tells another instance of each reported run’s result, and of an import’s checks once each', async () => {
    const [a, b] = await instances(2);
    await Promise.all([a!.changes.listen(() => undefined), b!.changes.listen(() => undefined)]);
    const heard: ChangeEvent[] = [];
    const stop = await b!.changes.listen((e) => void heard.push(e));
    await a!.offerRun({ accountId: A, checkId: 'c1', locationId: 'eu-west', dueAt: T0 }, T0);
    const [run] = await a!.claimRuns(A, 'eu-west', 'held', T0, LEASE, 1);
    const heardOk = next(b!, (e) => e.kind === 'result');
    // A report its token no longer holds stores nothing and tells no one; the holder's does.
    expect(await a!.completeRun(run!.id, 'gone', A, result('late', 0))).toBe(false);
    expect(await a!.completeRun(run!.id, 'held', A, result('ok', 0))).toBe(true);
    expect(await heardOk).toEqual({
      kind: 'result',
      accountId: A,
      checkId: 'c1',
      result: result('ok', 0),
      fromSelf: false,
    });
    // An import past what a NOTIFY carries: each check named once, without its results.
    const imported = Array.from({ length: 150 }, (_, i) => result(`i${i}`, i, i % 2 ? 'c2' : 'c3'));
    const named = next(b!, (e) => e.kind === 'result' && e.checkId === 'c3');
    await a!.insertResults(A, imported);
    await named;
    await a!.insertResult(A, result('after', 200, 'c4'));
    await vi.waitFor(() => expect(heard.at(-1)).toMatchObject({ checkId: 'c4' }));
    stop();
    expect(heard.filter((e) => e.kind === 'result').map((e) => ('checkId' in e ? e.checkId : ''))).toEqual(
      expect.arrayContaining(['c1', 'c2', 'c3', 'c4']),
    );
    expect(heard.filter((e) => e.kind === 'result')).toHaveLength(4);
    expect(heard.find((e) => 'checkId' in e && e.checkId === 'c2')).toEqual({
      kind: 'result',
      accountId: A,
      checkId: 'c2',
      fromSelf: false,
    });
  });

  it('listens again after its connection was cut, and says to read anew', async () => {
    const [a, b] = await instances(2);
    await b!.changes.listen(() => undefined);
    const resync = next(b!, (e) => e.kind === 'resync');
    const admin = new pg.Client({ connectionString: postgres.cluster().url('postgres') });
    await admin.connect();
    await admin.query(
      // The listening connection: its last query is the LISTEN, or the instance's advisory lock taken after it.
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE query LIKE 'LISTEN checkwall_changes%' OR query LIKE 'SELECT pg_advisory_lock(%'`,
    );
    await admin.end();
    await resync;
    const heard = next(b!, (e) => e.kind === 'result');
    await a!.insertResults(A, [result('r1', 0, 'c8'), result('r2', 1, 'c8')]);
    expect(await heard).toMatchObject({ kind: 'result', accountId: A, checkId: 'c8', fromSelf: false });
  });
});

describe('PostgreSQL storage: opening', () => {
  it('migrates once when several instances start on an empty database at once', async () => {
    const url = await postgres.freshDatabase();
    const all = await Promise.all(Array.from({ length: 4 }, () => openPgStorage(url, { poolSize: 2 })));
    opened.push(...all);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const { rows } = await db.query<{ version: number }>(
      'SELECT version FROM checkwall_migrations ORDER BY 1',
    );
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
    await db.query('INSERT INTO checkwall_migrations VALUES ($1, 0)', [PG_SCHEMA_VERSION + 1]);
    await db.end();
    await expect(openPgStorage(url)).rejects.toThrow(
      `cannot open the database ${describeDb(url).replace('PostgreSQL ', '')}: it has schema version ${PG_SCHEMA_VERSION + 1}`,
    );
  });

  it('upgrades a database of the schema before roll-ups, rolling up the results it holds', async () => {
    const url = await postgres.freshDatabase();
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(
      'CREATE TABLE checkwall_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
    );
    // Every migration before the roll-ups' own.
    const rollups = PG_MIGRATIONS.findIndex((sql) => sql.includes('history_hourly'));
    for (const [i, sql] of PG_MIGRATIONS.slice(0, rollups).entries()) {
      await db.query(sql);
      await db.query('INSERT INTO checkwall_migrations VALUES ($1, 0)', [i + 1]);
    }
    await db.query(
      `INSERT INTO results (id, account_id, check_id, location_id, ok, started_at, duration, response_time, triggered_by, json)
       VALUES ('old-1', $1, 'c1', 'eu-west', false, $2, 10, NULL, 'schedule', '{}'),
         ('old-2', $1, 'c1', 'eu-west', true, $3, 10, 120, 'schedule', '{}')`,
      [A, T0, T0 + 60_000],
    );
    await db.end();
    const s = await openPgStorage(url, { poolSize: 2 });
    opened.push(s);
    const day = T0 - (T0 % 86_400_000);
    expect(await s.historyTotals(A, 'c1', { from: day, to: day, granularity: 'day' })).toMatchObject({
      runs: 2,
      failures: 1,
      timed: 1,
      responseTimeSum: 120,
      p95ResponseTime: 108,
    });
  });

  it('says in one line what is wrong with a URL, naming host:port/database and never the password', async () => {
    const { port } = postgres.cluster();
    const { user, password } = PASSWORD_ROLE;
    const failure = async (url: string) => {
      const error = (await openStorage(url).then(
        () => null,
        (e: unknown) => e,
      )) as Error;
      expect(error.message).not.toContain(password);
      expect(error.message).not.toContain('\n');
      return error.message;
    };
    expect(await failure(`postgres://${user}:wrong-${password}@127.0.0.1:${port}/postgres`)).toBe(
      `cannot open the database 127.0.0.1:${port}/postgres: password authentication failed for user "${user}"`,
    );
    expect(await failure(`postgresql://${user}:${password}@127.0.0.1:${port}/nowhere`)).toBe(
      `cannot open the database 127.0.0.1:${port}/nowhere: database "nowhere" does not exist`,
    );
    const closed = await failure(`postgres://${user}:${password}@127.0.0.1:1/db`);
    expect(closed).toMatch(/^cannot open the database 127\.0\.0\.1:1\/db: .*ECONNREFUSED/);
    const right = await openStorage(`postgres://${user}:${password}@127.0.0.1:${port}/postgres`);
    await right.close();
  });

  it('knows a database by its spec and refuses other URLs naming only the scheme', () => {
    expect(dbKind(':memory:')).toBe('sqlite');
    expect(dbKind('data/checkwall.db')).toBe('sqlite');
    expect(dbKind('postgres://u:p@h/db')).toBe('postgres');
    expect(dbKind('PostgreSQL://h/db')).toBe('postgres');
    expect(() => dbKind('mysql://root:s3cret@h/db', 'CHECKWALL_DATABASE_URL')).toThrow(
      'CHECKWALL_DATABASE_URL takes a file path, :memory: or a postgres:// URL; "mysql:…" is not a database checkwall can use',
    );
    expect(() => dbKind('')).toThrow('--db needs a file path, :memory: or a postgres:// URL');
    expect(describeDb('postgres://cw:s3cret@db.internal:6543/checkwall')).toBe(
      'PostgreSQL db.internal:6543/checkwall',
    );
    expect(describeDb('postgres://db.internal/checkwall')).toBe('PostgreSQL db.internal:5432/checkwall');
  });
});

// A person's pause and resume of a check (issue 32) over real HTTP: what the status
// says, that run now is refused, that a resume runs it within seconds, and that the
// pause is kept in the database: through a restart, a reload, and to a second
// instance on the same PostgreSQL database. The instances of a test share one fake
// clock (test/helpers/fake-clock.ts), moved while their runs are at rest.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditEventListSchema } from '../../../src/api/schemas/actions.js';
import { ApiErrorBodySchema, CheckStatusSchema, type CheckStatus } from '../../../src/api/schemas/index.js';
import { plainKeyName, type ServiceConfig } from '../../../src/server/config/schema.js';
import { advanceUntil, createFakeClock, type FakeClock } from '../../helpers/fake-clock.js';
import { startFixture, type Fixture } from '../../helpers/fixture.js';
import { testPostgres } from '../../helpers/postgres.js';
import { storedResults } from '../../helpers/runner.js';
import { accountConfig } from '../../helpers/configs.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';
import { tempDb } from '../../helpers/storages.js';

const postgres = testPostgres();
const services: TestService[] = [];
let target: Fixture | undefined;
let clock: FakeClock;

beforeEach(() => {
  clock = createFakeClock();
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await target?.close();
  target = undefined;
});

// Who paused: the name of the test's key (a plain string: key- and 8 hex digits of its digest).
const KEY_NAME = plainKeyName(TEST_KEY);
const headers = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

function config(url: string, enabled = true): ServiceConfig {
  return accountConfig({
    checks: [
      { id: 'c1', target: `${url}/c1`, frequency: '1h' },
      { id: 'c2', target: `${url}/c2`, frequency: '1h', enabled },
    ],
  });
}

async function start(opts: { dbPath?: string; enabled?: boolean } = {}) {
  target ??= await startFixture((_req, res) => void res.writeHead(200).end('ok'));
  const s = await startTestService({
    config: config(target.url, opts.enabled),
    startScheduler: true,
    clock,
    ...(opts.dbPath ? { dbPath: opts.dbPath } : {}),
  });
  services.push(s);
  return s;
}

/** Moves the clock until `done` holds (within `withinMs` of it), each step once no run is under way. */
const clockUntil = (done: () => Promise<boolean>, withinMs: number) =>
  advanceUntil(clock, done, {
    idle: () => services.every((s) => s.runStats().running === 0),
    withinMs,
  });

const act = (s: TestService, checkId: string, what: 'pause' | 'resume') =>
  fetch(`${s.url}/v1/checks/${checkId}/${what}`, { method: 'POST', headers });

async function status(s: TestService, checkId: string): Promise<CheckStatus> {
  const res = await fetch(`${s.url}/v1/check-statuses?limit=100`, { headers });
  const body = (await res.json()) as { data: unknown[] };
  return body.data.map((d) => CheckStatusSchema.parse(d)).find((c) => c.checkId === checkId)!;
}

function expectPaused(c: CheckStatus) {
  expect(c.status).toBe('unknown');
  expect(c.statusReason).toMatch(new RegExp(`^paused by ${KEY_NAME} since \\d{4}-\\d\\d-\\d\\dT`));
  expect(c.schedule).toMatchObject({ enabled: false, nextRun: null });
  expect(c.paused).toMatchObject({ by: KEY_NAME });
}

describe('pause and resume', { timeout: 60_000 }, () => {
  it('records who paused, resumed and ran a check in the audit trail', async () => {
    const s = await start();
    expect((await act(s, 'c1', 'pause')).status).toBe(200);
    expect((await act(s, 'c1', 'resume')).status).toBe(200);
    const asked = await fetch(`${s.url}/v1/check-runs`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: ['c1'] }),
    });
    expect(asked.status).toBe(202);
    const res = await fetch(`${s.url}/v1/audit-events?checkId=c1`, { headers });
    const events = AuditEventListSchema.parse(await res.json()).data;
    expect(events.map((e) => [e.action, e.keyName, e.checkId])).toEqual([
      ['run', KEY_NAME, 'c1'],
      ['resume', KEY_NAME, 'c1'],
      ['pause', KEY_NAME, 'c1'],
    ]);
  });

  it('refuses a body with keys, pausing nothing: the pause has no end to set', async () => {
    const s = await start();
    const withBody = (what: 'pause' | 'resume', body: unknown) =>
      fetch(`${s.url}/v1/checks/c1/${what}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await withBody('pause', { until: '2026-12-01T00:00:00Z' });
    expect(refused.status).toBe(400);
    expect(ApiErrorBodySchema.parse(await refused.json()).details).toEqual([
      { path: 'until', message: 'unknown key "until"' },
    ]);
    expect((await status(s, 'c1')).paused).toBeNull();
    // An empty object is no body: it pauses, and a resume with one resumes.
    expect((await withBody('pause', {})).status).toBe(200);
    expectPaused(await status(s, 'c1'));
    expect((await withBody('resume', { reason: 'done' })).status).toBe(400);
    expectPaused(await status(s, 'c1'));
    expect((await withBody('resume', {})).status).toBe(200);
    expect((await status(s, 'c1')).paused).toBeNull();
  });

  it('pauses a check: its status says who and since when, run now is a 409, and a resume runs it within seconds', async () => {
    const s = await start();
    await clockUntil(async () => (await storedResults(s, 'c1')).length > 0, 20_000);
    expect(await storedResults(s, 'c1')).toHaveLength(1);

    const paused = await act(s, 'c1', 'pause');
    expect(paused.status).toBe(200);
    const body = (await paused.json()) as { data: unknown };
    expectPaused(CheckStatusSchema.parse(body.data));
    expectPaused(await status(s, 'c1'));
    expect((await status(s, 'c2')).paused).toBeNull();

    const refused = await fetch(`${s.url}/v1/check-runs`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: ['c1'] }),
    });
    expect(refused.status).toBe(409);
    expect(ApiErrorBodySchema.parse(await refused.json()).message).toMatch(
      new RegExp(`check "c1" is paused by ${KEY_NAME} since .* until someone resumes it`),
    );

    const resumed = await act(s, 'c1', 'resume');
    expect(resumed.status).toBe(200);
    const after = CheckStatusSchema.parse(((await resumed.json()) as { data: unknown }).data);
    expect(after.paused).toBeNull();
    expect(after.schedule.enabled).toBe(true);
    // Its hourly schedule would not run it for an hour: the resume runs it now.
    await clockUntil(async () => (await storedResults(s, 'c1')).length > 1, 10_000);
    expect(await storedResults(s, 'c1')).toHaveLength(2);
    await clockUntil(async () => (await status(s, 'c1')).schedule.nextRun !== null, 10_000);

    expect((await act(s, 'nope', 'pause')).status).toBe(404);
  });

  it('keeps the pause through a reload and a restart; a config that disables the check stays the baseline', async () => {
    const dbPath = tempDb();
    const first = await start({ dbPath });
    expect((await act(first, 'c1', 'pause')).status).toBe(200);
    await first.reload(config(target!.url));
    expectPaused(await status(first, 'c1'));
    await first.close();
    services.splice(0);

    const again = await start({ dbPath, enabled: false });
    expectPaused(await status(again, 'c1'));
    const resumed = await act(again, 'c2', 'resume');
    const body = (await resumed.json()) as { data: unknown; meta?: { note?: string } };
    expect(body.meta?.note).toMatch(/config disables this check/);
    const c2 = CheckStatusSchema.parse(body.data);
    expect(c2.schedule.enabled).toBe(false);
    expect(c2.statusReason).toBe('the check is disabled');
  });

  it('reaches a second instance on the same PostgreSQL database, and so does the resume', async () => {
    const url = await postgres.freshDatabase();
    const a = await start({ dbPath: url });
    const b = await start({ dbPath: url });
    expect((await act(a, 'c1', 'pause')).status).toBe(200);
    await clockUntil(async () => (await status(b, 'c1')).paused?.by === KEY_NAME, 10_000);
    expectPaused(await status(b, 'c1'));
    expect((await act(b, 'c1', 'resume')).status).toBe(200);
    await clockUntil(async () => ((await status(a, 'c1')).paused ?? null) === null, 10_000);
  });
});

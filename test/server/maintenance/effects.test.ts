// What a maintenance window does to checks (issue 33), over real HTTP: a window in
// pause mode stops the scheduler (status unknown naming the window, run now 409,
// resume lifts only a person's pause and says when the window's ends); a group or
// tag scope covers a check a config reload adds; two instances on one PostgreSQL
// database agree on the window and the end's page goes out once.
import { afterEach, describe, expect, it } from 'vitest';
import { MaintenanceWindowSchema } from '../../../src/api/schemas/maintenance.js';
import {
  AlertPayloadSchema,
  ApiErrorBodySchema,
  CheckStatusSchema,
  type CheckStatus,
} from '../../../src/api/schemas/index.js';
import type { ServiceConfig } from '../../../src/server/config/schema.js';
import {
  alertConfig,
  notifications,
  runner,
  startReceivers,
  type Receivers,
} from '../../helpers/alerting.js';
import { startFixture, type Fixture } from '../../helpers/fixture.js';
import { testPostgres } from '../../helpers/postgres.js';
import { storedResults } from '../../helpers/runner.js';
import { advanceUntil, createFakeClock } from '../../helpers/fake-clock.js';
import { call } from '../../helpers/http.js';
import { accountConfig, type TestCheck } from '../../helpers/configs.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

const postgres = testPostgres();
const services: TestService[] = [];
let target: Fixture | undefined;
let receivers: Receivers | undefined;

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await target?.close();
  await receivers?.close();
  target = receivers = undefined;
});

const headers = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

function config(url: string, extra: TestCheck[] = []): ServiceConfig {
  const check = (id: string, tags: string[]) => ({
    id,
    target: `${url}/${id}`,
    frequency: '1h',
    group: 'web',
    tags,
  });
  return accountConfig({
    account: { groups: [{ id: 'web', name: 'Web' }] },
    checks: [check('c1', ['deploy']), check('c2', []), ...extra],
  });
}

async function status(s: TestService, checkId: string): Promise<CheckStatus> {
  const res = await fetch(`${s.url}/v1/check-statuses?limit=100&includeSummary=true`, { headers });
  const body = (await res.json()) as { data: unknown[] };
  return body.data.map((d) => CheckStatusSchema.parse(d)).find((c) => c.checkId === checkId)!;
}

async function summary(s: TestService) {
  const res = await fetch(`${s.url}/v1/check-statuses?limit=100&includeSummary=true`, { headers });
  return ((await res.json()) as { meta: { summary: { inMaintenance?: number } } }).meta.summary;
}

describe('maintenance windows on checks', { timeout: 60_000 }, () => {
  it('in pause mode: the check does not run, shows unknown naming the window, run now is 409, resume says when it ends', async () => {
    target = await startFixture((_req, res) => void res.writeHead(200).end('ok'));
    // On the fake clock: the first run (a new check catches up within seconds of it) is stepped to.
    const clock = createFakeClock();
    const s = await startTestService({ config: config(target.url), startScheduler: true, clock });
    services.push(s);
    await advanceUntil(clock, async () => (await storedResults(s, 'c1')).length > 0, {
      idle: () => s.runStats().running === 0,
      withinMs: 20_000,
    });
    expect(await storedResults(s, 'c1')).toHaveLength(1);

    const created = await call(s, 'POST', '/v1/maintenance-windows', {
      name: 'db migration',
      reason: 'schema change',
      scope: { tags: ['deploy'] },
      duration: '2h',
      mode: 'pause',
    });
    expect(created.status).toBe(201);
    const w = MaintenanceWindowSchema.parse(created.body);
    const c1 = await status(s, 'c1');
    expect(c1).toMatchObject({
      status: 'unknown',
      statusReason: `paused by maintenance "db migration" until ${w.endsAt}`,
      schedule: { enabled: false, nextRun: null },
      maintenance: { id: w.id, name: 'db migration', mode: 'pause', endsAt: w.endsAt },
      paused: null,
    });
    expect((await status(s, 'c2')).maintenance).toBeNull();
    expect(await summary(s)).toMatchObject({ inMaintenance: 1 });

    const refused = await call(s, 'POST', '/v1/check-runs', { checkIds: ['c1'] });
    expect(refused.status).toBe(409);
    expect(ApiErrorBodySchema.parse(refused.body).message).toMatch(
      `check "c1" is paused by maintenance window "db migration" (${w.id}) until ${w.endsAt}`,
    );
    // A group run leaves it out, saying why.
    const group = await call(s, 'POST', '/v1/check-runs', { groupIds: ['web'] });
    expect(group.status).toBe(202);
    expect(group.body['meta']).toMatchObject({ leftOut: [{ checkId: 'c1' }] });

    const resumed = await call(s, 'POST', '/v1/checks/c1/resume');
    expect(resumed.status).toBe(200);
    expect(resumed.body['meta']).toMatchObject({ maintenancePauseEndsAt: w.endsAt });
    expect((resumed.body['meta'] as { note: string }).note).toMatch(/lifts only a person's pause/);
    expect(CheckStatusSchema.parse(resumed.body['data']).status).toBe('unknown');

    // Ended now: scheduled again, no longer unknown for the window.
    expect((await call(s, 'PATCH', `/v1/maintenance-windows/${w.id}`, { endsAt: 'now' })).status).toBe(200);
    await expect.poll(async () => (await status(s, 'c1')).schedule.enabled).toBe(true);
    expect((await status(s, 'c1')).maintenance).toBeNull();
    expect(await summary(s)).toMatchObject({ inMaintenance: 0 });
  });

  it('leaves runs inside a window with excludeFromAvailability out of the availability, and says how many', async () => {
    target = await startFixture((_req, res) => void res.writeHead(200).end('ok'));
    const s = await startTestService({ config: config(target.url) });
    services.push(s);
    const now = Date.now();
    await s.seed('c1', ['success', 'success'], { location: 'near', endAt: now - 2 * 3_600_000 });
    await s.seed('c2', ['success', 'success'], { location: 'near', endAt: now - 2 * 3_600_000 });
    const w = await call(s, 'POST', '/v1/maintenance-windows', {
      name: 'failover test',
      reason: 'planned',
      scope: { checks: ['c1', 'c2'] },
      startsAt: new Date(now - 30 * 60_000).toISOString(),
      duration: '1h',
      excludeFromAvailability: true,
    });
    expect(w.status).toBe(201);
    await s.seed('c1', ['failed', 'failed'], { location: 'near', endAt: now - 60_000 });
    const c1 = await status(s, 'c1');
    expect(c1.availability).toMatchObject({ percentage: 100, excludedRuns: 2 });
    // The truth of the runs stays on the board: the check is failing.
    expect(c1.status).toBe('failing');
    expect((await status(s, 'c2')).availability).toMatchObject({ percentage: 100, excludedRuns: 0 });
  });

  it('leaves them out too for a check with more runs a day than are kept one by one', async () => {
    target = await startFixture((_req, res) => void res.writeHead(200).end('ok'));
    const s = await startTestService({ config: config(target.url) });
    services.push(s);
    const now = Date.now();
    // 400 good runs a minute apart before the window, then 40 failed ones inside it.
    await s.seed('c1', Array(400).fill('success'), {
      location: 'near',
      spacingMs: 60_000,
      endAt: now - 3 * 3_600_000,
    });
    const w = await call(s, 'POST', '/v1/maintenance-windows', {
      name: 'failover test',
      reason: 'planned',
      scope: { checks: ['c1'] },
      startsAt: new Date(now - 50 * 60_000).toISOString(),
      duration: '1h',
      excludeFromAvailability: true,
    });
    expect(w.status).toBe(201);
    await s.seed('c1', Array(40).fill('failed'), {
      location: 'near',
      spacingMs: 60_000,
      endAt: now - 60_000,
    });
    const c1 = await status(s, 'c1');
    expect(c1.availability).toMatchObject({ percentage: 100, excludedRuns: 40 });
    expect(c1.status).toBe('failing');
  });

  it('covers by group and tag a check a config reload adds', async () => {
    target = await startFixture((_req, res) => void res.writeHead(200).end('ok'));
    const s = await startTestService({ config: config(target.url) });
    services.push(s);
    const byGroup = MaintenanceWindowSchema.parse(
      (
        await call(s, 'POST', '/v1/maintenance-windows', {
          name: 'web',
          reason: 'r',
          scope: { groups: ['web'] },
          duration: '1h',
          allowEmpty: true,
        })
      ).body,
    );
    const byTag = MaintenanceWindowSchema.parse(
      (
        await call(s, 'POST', '/v1/maintenance-windows', {
          name: 'late',
          reason: 'r',
          scope: { tags: ['late'] },
          duration: '3h',
          allowEmpty: true,
        })
      ).body,
    );
    const added = {
      id: 'c3',
      name: 'c3',
      type: 'api',
      target: `${target.url}/c3`,
      frequency: '1h',
      locations: ['near'],
      tags: ['late'],
    };
    const inGroup = { ...added, id: 'c4', name: 'c4', group: 'web', tags: [] };
    await s.reload(config(target.url, [added, inGroup]));
    expect((await status(s, 'c3')).maintenance).toMatchObject({ id: byTag.id, name: 'late' });
    expect((await status(s, 'c4')).maintenance).toMatchObject({ id: byGroup.id, name: 'web' });
    const listed = await call(s, 'GET', '/v1/maintenance-windows?checkId=c3');
    expect((listed.body['data'] as Array<{ id: string }>).map((x) => x.id)).toEqual([byTag.id]);
    expect(await summary(s)).toMatchObject({ inMaintenance: 4 });
  });

  it('is one window for two instances on one PostgreSQL database, and its end pages once', async () => {
    const url = await postgres.freshDatabase();
    receivers = await startReceivers();
    const cfg = alertConfig(receivers, { alerts: { c1: { afterFailures: 2 } } });
    const a = await startTestService({ config: cfg, dbPath: url });
    services.push(a);
    const b = await startTestService({ config: cfg, dbPath: url });
    services.push(b);
    const run = runner(a);
    await run('c1', ['success']);
    const w = MaintenanceWindowSchema.parse(
      (
        await call(a, 'POST', '/v1/maintenance-windows', {
          name: 'deploy',
          reason: 'r',
          scope: { checks: ['c1'] },
          duration: '1h',
        })
      ).body,
    );
    await expect.poll(async () => (await status(b, 'c1')).maintenance?.id, { timeout: 10_000 }).toBe(w.id);
    expect((await call(b, 'GET', `/v1/maintenance-windows/${w.id}`)).body).toMatchObject({ state: 'active' });
    await run('c1', ['failed', 'failed', 'failed']);
    await expect.poll(async () => (await notifications(a)).map((n) => n.status)).toEqual(['suppressed']);
    // Ended on b: both instances see it end; the page goes out once.
    expect((await call(b, 'PATCH', `/v1/maintenance-windows/${w.id}`, { endsAt: 'now' })).status).toBe(200);
    await expect.poll(() => receivers!.hook.seen.length, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await status(a, 'c1')).maintenance, { timeout: 10_000 }).toBeNull();
    const page = AlertPayloadSchema.parse(JSON.parse(receivers.hook.seen[0]!.body));
    expect(page.maintenance).toMatchObject({ id: w.id, name: 'deploy' });
    // Both instances' end timers have ticked past the end by now: still one page.
    await expect
      .poll(async () => (await notifications(a)).filter((n) => n.status !== 'suppressed').length)
      .toBe(1);
    expect(receivers.hook.seen).toHaveLength(1);
  });
});

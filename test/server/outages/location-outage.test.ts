// A broken location (docs/alerts.md, "A broken location"), through the real service on the
// fake clock: results arrive by its run path, pages reach a real webhook receiver. 200
// checks over 3 locations, 20 of them only at Singapore; Singapore's network breaks: one
// `location` page, no page per check from there, statuses true and shown held; the
// location recovers: its recovery, and nothing for the checks that recovered with it;
// then one target failing everywhere pages as ever.
import { describe, expect, it } from 'vitest';
import { CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import type { ServiceConfig } from '../../../src/server/config/schema.js';
import {
  AUTH,
  alertConfig,
  farRunnerAsks,
  farLocationConfig,
  closedAfterEach,
  hookChannel,
  hookEvents,
  notifications,
  startAlertService,
  startReceivers,
} from '../../helpers/alerting.js';
import { advanceBy, createFakeClock } from '../../helpers/fake-clock.js';
import type { TestService } from '../../helpers/service.js';

const held = closedAfterEach();

const SINGAPORE = { id: 'ap-south', name: 'Singapore', region: 'ap-southeast-1' };
const ALL = ['eu-west', 'us-east', 'ap-south'];

/** 180 checks at two or three locations, Singapore among them, and 20 at Singapore alone. */
function checks() {
  return Array.from({ length: 200 }, (_, i) => ({
    id: `k${i}`,
    name: `Service ${i}`,
    type: 'api',
    target: `http://svc-${i}.example.test/health`,
    frequency: '1m',
    locations: i >= 180 ? ['ap-south'] : i % 2 === 0 ? ALL : ['eu-west', 'ap-south'],
  }));
}

function outageConfig(r: Parameters<typeof alertConfig>[0]): ServiceConfig {
  const all = checks();
  const config = alertConfig(r, {
    extraChecks: all,
    channels: [hookChannel(r, { checks: all.map((c) => c.id) })],
  });
  config.accounts[0]!.locations.push({ ...SINGAPORE, remote: false });
  return config;
}

/** Results one at a tenth of a second apart, a minute behind the clock, as runs would be stored. */
function feeder(s: TestService, now: () => number) {
  let n = 0;
  return async (id: string, statuses: Array<'success' | 'failed'>, location: string) => {
    for (const status of statuses) await s.seed(id, [status], { location, endAt: now() - 60_000 + ++n * 10 });
  };
}

/** Every status (three pages of 100) and the first page's meta. */
async function list(s: TestService) {
  const pages = await Promise.all(
    [1, 2, 3].map(async (page) => {
      const res = await fetch(`${s.url}/v1/check-statuses?limit=100&page=${page}`, { headers: AUTH });
      return CheckStatusListSchema.parse(await res.json());
    }),
  );
  return { meta: pages[0]!.meta, data: pages.flatMap((p) => p.data) };
}

describe('a broken location', { timeout: 120_000 }, () => {
  it('one page for Singapore, none per check, statuses true and held; its recovery; then a target down everywhere pages', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const s = (held.svc = await startAlertService(outageConfig(r), clock, { startScheduler: false }));
    const feed = feeder(s, clock.now);
    const all = checks();
    // Ten passing runs at each location first, so a check that recovers reads recovered (availability).
    const history = Array<'success'>(10).fill('success');
    for (const c of all)
      for (const l of c.locations)
        await s.seed(c.id, history, { location: l, endAt: clock.now() - 90_000, spacingMs: 100 });
    await advanceBy(clock, 2_000);
    expect(hookEvents(r)).toEqual([]);

    // Singapore's network breaks: every check run there fails there, and passes elsewhere.
    for (const c of all) await feed(c.id, ['failed', 'failed'], 'ap-south');
    await advanceBy(clock, 4_000);
    await expect.poll(() => hookEvents(r).length).toBe(1);
    const page = JSON.parse(r.hook.seen[0]!.body) as Record<string, unknown>;
    expect(page).toMatchObject({
      event: 'location',
      check: null,
      alertId: null,
      location: { id: 'ap-south', name: 'Singapore' },
      failing: 180,
      total: 180,
    });
    expect(page['cause']).toMatch(
      /^Singapore: 180 of 180 checks failing since \d\d:\d\d UTC while they pass elsewhere/,
    );

    const listed = await list(s);
    const outage = listed.meta.locationOutages![0]!;
    expect(outage).toMatchObject({
      id: 'ap-south',
      name: 'Singapore',
      outageId: page['outageId'],
      failing: 180,
    });
    const byId = new Map(listed.data.map((st) => [st.checkId, st]));
    // Statuses stay true: failing at Singapore, passing where else they run, each held.
    expect(byId.get('k190')!.status).toBe('failing');
    expect(byId.get('k0')!.locations.map((l) => [l.id, l.status])).toEqual([
      ['eu-west', 'passing'],
      ['us-east', 'passing'],
      ['ap-south', 'failing'],
    ]);
    for (const c of all)
      expect(byId.get(c.id)!.heldBy).toMatchObject({ kind: 'location', id: 'ap-south', name: 'Singapore' });
    const log = [
      ...(await notifications(s)),
      ...(await notifications(s, 'page=2')),
      ...(await notifications(s, 'page=3')),
    ];
    expect(log.filter((n) => n.check !== null && n.status !== 'suppressed')).toEqual([]);
    expect(log.find((n) => n.check !== null)?.lastError).toMatch(
      /^suppressed: location Singapore is down since /,
    );

    // The network comes back: the outage ends after a whole window below half its threshold.
    for (const c of all) await feed(c.id, ['success', 'success', 'success'], 'ap-south');
    await advanceBy(clock, 130_000, { stepMs: 2_000 });
    await expect.poll(() => hookEvents(r).map((e) => e.event)).toEqual(['location', 'location-recovery']);
    expect((await list(s)).meta.locationOutages).toEqual([]);

    // One target down everywhere is that target: its page waits for its location's decision,
    // and goes as soon as other checks there pass.
    for (const l of ALL) await feed('k0', ['failed', 'failed'], l);
    const waiting = (await notifications(s, 'checkId=k0')).find((n) => n.event === 'failure')!;
    expect(waiting).toMatchObject({ status: 'pending' });
    expect(waiting.lastError).toMatch(/^waiting up to 60 s: is location \w+ down\?/);
    for (const id of ['k2', 'k4', 'k6', 'k8', 'k10'])
      for (const l of ALL) await s.seed(id, ['success'], { location: l, endAt: clock.now() });
    await advanceBy(clock, 2_000);
    await expect
      .poll(() => hookEvents(r).map((e) => e.event))
      .toEqual(['location', 'location-recovery', 'failure']);
  });

  it('a remote location whose runners stopped is one page, not one per check, and its recovery when a runner is back', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const config = farLocationConfig(r, hookChannel(r, { checks: ['f1', 'f2', 'f3'] }));
    const s = (held.svc = await startAlertService(config, clock, { startScheduler: false }));

    // No runner asks for work for three of the location's shortest periods (1 m).
    await advanceBy(clock, 3 * 60_000 + 4_000, { stepMs: 2_000 });
    await expect.poll(() => hookEvents(r).map((e) => e.event)).toEqual(['location']);
    const page = JSON.parse(r.hook.seen[0]!.body) as { cause: string; location: { id: string } };
    expect(page.location.id).toBe('far');
    expect(page.cause).toMatch(
      /^Far away: no runner has asked for work since \d\d:\d\d UTC; the location's runners/,
    );
    expect((await list(s)).meta.locationOutages!.map((o) => o.id)).toEqual(['far']);

    // A runner asks for work: the location is back.
    expect((await farRunnerAsks(s)).status).toBe(200);
    await advanceBy(clock, 4_000, { stepMs: 2_000 });
    await expect.poll(() => hookEvents(r).map((e) => e.event)).toEqual(['location', 'location-recovery']);
  });
});

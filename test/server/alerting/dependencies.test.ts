// Dependencies between checks (docs/alerts.md, "Dependencies"), through the real service
// on the fake clock: results arrive by its run path, pages reach a real webhook receiver.
// A database check with 30 dependents failing pages once; the 30 are held (logged
// suppressed with the reason) and shown held; the parent's recovery pages each one still
// failing once. A parent failing only at another location holds nothing; a cycle is a
// config error naming its path.
import { describe, expect, it } from 'vitest';
import {
  alertConfig,
  closedAfterEach,
  hookChannel,
  hookEvents,
  notifications,
  post,
  startAlertService,
  startReceivers,
  statusOf,
  type Receivers,
} from '../../helpers/alerting.js';
import { advanceBy, createFakeClock } from '../../helpers/fake-clock.js';
import type { TestService } from '../../helpers/service.js';
import { tempDb } from '../../helpers/storages.js';

const held = closedAfterEach();

const check = (id: string, name: string, more: Record<string, unknown> = {}) => ({
  id,
  name,
  type: 'api',
  target: 'http://127.0.0.1:9/health',
  frequency: '1m',
  locations: ['eu-west'],
  ...more,
});

/** Feeds results one at a time, each a tenth of a second after the last, at the given location. */
function feeder(s: TestService, now: () => number) {
  let n = 0;
  return async (id: string, statuses: Array<'success' | 'failed'>, location = 'eu-west') => {
    for (const status of statuses)
      await s.seed(id, [status], { location, endAt: now() - 60_000 + ++n * 100 });
  };
}

/** The checks each webhook failure event named, counted. */
const failuresSent = (r: Receivers) => {
  const counts = new Map<string, number>();
  for (const s of r.hook.seen) {
    const p = JSON.parse(s.body) as { event: string; check: { id: string } };
    if (p.event === 'failure') counts.set(p.check.id, (counts.get(p.check.id) ?? 0) + 1);
  }
  return counts;
};

describe('dependencies', { timeout: 60_000 }, () => {
  it('a failing database holds its 30 dependents: one page, 30 held and shown held, then one page each still failing', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const dependents = Array.from({ length: 30 }, (_, i) => `d${i + 1}`);
    const config = alertConfig(r, {
      extraChecks: [
        check('db', 'DB primary'),
        ...dependents.map((id) => check(id, `App ${id}`, { dependsOn: ['db'] })),
      ],
      channels: [hookChannel(r, { checks: ['db', ...dependents] })],
    });
    const s = (held.svc = await startAlertService(config, clock));
    const feed = feeder(s, clock.now);
    // Enough passing history that one recovers by its next passing runs.
    for (const id of ['db', 'd1'])
      await s.seed(id, Array(40).fill('success'), { endAt: clock.now() - 70_000, spacingMs: 10 });

    await feed('db', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(1);
    await Promise.all(dependents.map((id) => feed(id, ['failed', 'failed'])));

    const log = await notifications(s);
    const heldRows = log.filter((n) => n.check?.id !== 'db' && n.event === 'failure');
    expect(heldRows).toHaveLength(30);
    for (const n of heldRows) {
      expect(n.status).toBe('suppressed');
      expect(n.lastError).toBe('suppressed: depends on DB primary, failing at Frankfurt');
    }
    expect(r.hook.seen).toHaveLength(1);
    const dbAlert = (await statusOf(s, 'db')).currentAlert!;
    for (const id of dependents)
      expect((await statusOf(s, id)).heldBy).toEqual({
        kind: 'dependency',
        id: 'db',
        name: 'DB primary',
        since: dbAlert.openedAt,
        location: 'eu-west',
      });

    // d1 recovers while the database still fails: its recovery is held with its failure.
    await feed('d1', ['success', 'success', 'success']);
    const d1 = (await notifications(s)).filter((n) => n.check?.id === 'd1');
    expect(d1.map((n) => [n.event, n.status])).toEqual([
      ['recovery', 'suppressed'],
      ['failure', 'suppressed'],
    ]);

    // The database recovers: its recovery, and one page for each of the 29 still failing.
    await feed('db', ['success', 'success', 'success']);
    await expect.poll(() => r.hook.seen.length).toBe(1 + 1 + 29);
    const sent = failuresSent(r);
    expect(sent.get('db')).toBe(1);
    expect(sent.has('d1')).toBe(false);
    for (const id of dependents.slice(1)) expect(sent.get(id)).toBe(1);
    // A later failed run of a dependent, its alert still open, pages nobody again.
    await feed('d2', ['failed']);
    const d2 = (await notifications(s)).filter((n) => n.check?.id === 'd2' && n.event === 'failure');
    expect(d2.map((n) => n.status).sort()).toEqual(['sent', 'suppressed']);
    expect((await statusOf(s, 'd2')).heldBy ?? null).toBeNull();
  });

  it('a parent failing only at another location holds nothing here', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const config = alertConfig(r, {
      extraChecks: [
        check('db', 'DB primary', { locations: ['eu-west', 'us-east'] }),
        check('app', 'App', { dependsOn: ['db'] }),
      ],
      channels: [hookChannel(r, { checks: ['db', 'app'] })],
    });
    const s = (held.svc = await startAlertService(config, clock));
    const feed = feeder(s, clock.now);
    await feed('db', ['failed', 'failed'], 'us-east');
    await expect.poll(() => r.hook.seen.length).toBe(1);
    await feed('app', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(2);
    expect([...failuresSent(r).keys()].sort()).toEqual(['app', 'db']);
    expect((await statusOf(s, 'app')).heldBy ?? null).toBeNull();
  });

  it('a parent paging no channel silences nobody: the dependent pages the channel it has', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const config = alertConfig(r, {
      extraChecks: [check('db', 'DB primary'), check('app', 'App', { dependsOn: ['db'] })],
      channels: [hookChannel(r, { checks: ['app'] })],
    });
    const s = (held.svc = await startAlertService(config, clock));
    const feed = feeder(s, clock.now);
    await feed('db', ['failed', 'failed']);
    expect((await statusOf(s, 'db')).currentAlert).toBeTruthy();
    await feed('app', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(1);
    expect([...failuresSent(r).keys()]).toEqual(['app']);
  });

  it('a dependent of two failing parents pages once, when the last of them recovers', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const config = alertConfig(r, {
      extraChecks: [
        check('db', 'DB primary'),
        check('cache', 'Cache'),
        check('app', 'App', { dependsOn: ['db', 'cache'] }),
      ],
      channels: [hookChannel(r, { checks: ['db', 'cache', 'app'] })],
    });
    const s = (held.svc = await startAlertService(config, clock));
    const feed = feeder(s, clock.now);
    for (const id of ['db', 'cache'])
      await s.seed(id, Array(40).fill('success'), { endAt: clock.now() - 70_000, spacingMs: 10 });
    await feed('db', ['failed', 'failed']);
    await feed('cache', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(2);
    await feed('app', ['failed', 'failed']);
    await feed('db', ['success', 'success', 'success']);
    // The end of db's hold finds the cache still failing: written held again, naming it.
    await expect
      .poll(async () =>
        (await notifications(s))
          .filter((n) => n.check?.id === 'app' && n.event === 'failure')
          .map((n) => n.lastError)
          .sort(),
      )
      .toEqual([
        'suppressed: depends on Cache, failing at Frankfurt',
        'suppressed: depends on DB primary, failing at Frankfurt',
      ]);
    await feed('cache', ['success', 'success', 'success']);
    await expect.poll(() => failuresSent(r).get('app')).toBe(1);
  });

  it('no race: a dependent failing first waits for its parent, held when the parent fails, sent when it passes', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const config = alertConfig(r, {
      extraChecks: [
        check('db', 'DB primary'),
        check('app', 'App', { dependsOn: ['db'] }),
        check('web', 'Web', { dependsOn: ['db'] }),
      ],
      channels: [hookChannel(r, { checks: ['db', 'app', 'web'] })],
    });
    const s = (held.svc = await startAlertService(config, clock));
    const feed = feeder(s, clock.now);
    await s.seed('db', Array(40).fill('success'), { endAt: clock.now() - 70_000, spacingMs: 10 });
    // The app fails before the database has run again: its page waits on its delivery row.
    await feed('app', ['failed', 'failed']);
    const waiting = (await notifications(s, 'checkId=app'))[0]!;
    expect(waiting).toMatchObject({ event: 'failure', status: 'pending' });
    expect(waiting.lastError).toBe(
      'waiting up to 60 s: is DB primary failing too? (docs/alerts.md, "No race")',
    );
    // The database fails and pages: the app's page is held, not sent.
    await feed('db', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(1);
    await advanceBy(clock, 2_000);
    await expect
      .poll(async () => (await notifications(s, 'checkId=app'))[0]!.lastError)
      .toBe('suppressed: depends on DB primary, failing at Frankfurt');
    expect([...failuresSent(r).keys()]).toEqual(['db']);

    // Once the database passes again, a dependent failing on its own is paged as soon as the
    // database has run since and passed.
    await feed('db', ['success', 'success', 'success']);
    await feed('web', ['failed', 'failed']);
    expect((await notifications(s, 'checkId=web'))[0]).toMatchObject({ status: 'pending' });
    await feed('db', ['success']);
    await advanceBy(clock, 2_000);
    await expect.poll(() => failuresSent(r).get('web')).toBe(1);
  });

  it('a kill between the parent recovering and its dependents paging: the next start pages each once', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const config = alertConfig(r, {
      extraChecks: [check('db', 'DB primary'), check('app', 'App', { dependsOn: ['db'] })],
      channels: [hookChannel(r, { checks: ['db', 'app'] })],
    });
    const dbPath = tempDb();
    let s = (held.svc = await startAlertService(config, clock, { dbPath }));
    const feed = feeder(s, clock.now);
    await s.seed('db', Array(40).fill('success'), { endAt: clock.now() - 70_000, spacingMs: 10 });
    await feed('db', ['failed', 'failed']);
    await feed('app', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(1);
    // The process dies before the page at the parent's recovery is written: here, its write fails.
    const apply = s.storage.applyAlertChange.bind(s.storage);
    s.storage.applyAlertChange = (accountId, change) =>
      change.holdEnd?.kind === 'dependency' ? Promise.reject(new Error('killed')) : apply(accountId, change);
    await feed('db', ['success', 'success', 'success']);
    await expect.poll(() => hookEvents(r).map((e) => e.event)).toEqual(['failure', 'recovery']);
    await s.close();

    s = held.svc = await startAlertService(config, clock, { dbPath });
    await expect.poll(() => failuresSent(r).get('app')).toBe(1);
    // Recorded as sent before the stop: a stop cutting a delivery short has it sent again at the
    // next start, with the same delivery id (at least once), which is not what this test is about.
    const appSent = async () =>
      (await notifications(s, 'checkId=app')).filter((n) => n.event === 'failure' && n.status === 'sent');
    await expect.poll(async () => (await appSent()).length).toBe(1);
    await s.close();
    // Another start finds it paged: nothing more.
    s = held.svc = await startAlertService(config, clock, { dbPath });
    await advanceBy(clock, 2_000);
    expect(failuresSent(r).get('app')).toBe(1);
  });

  it("names the hold on the one check's status a pause answers with", async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const config = alertConfig(r, {
      extraChecks: [check('db', 'DB primary'), check('app', 'App', { dependsOn: ['db'] })],
      channels: [hookChannel(r, { checks: ['db', 'app'] })],
    });
    const s = (held.svc = await startAlertService(config, clock));
    const feed = feeder(s, clock.now);
    await feed('db', ['failed', 'failed']);
    await feed('app', ['failed', 'failed']);
    const res = await post(s, '/v1/checks/app/pause');
    expect(res.status).toBe(200);
    const body = res.body as { data: { heldBy?: unknown } };
    expect(body.data.heldBy).toMatchObject({
      kind: 'dependency',
      id: 'db',
      name: 'DB primary',
      location: 'eu-west',
    });
  });

  it('a cycle in the config is an error naming its path', () => {
    const r = {
      hook: { url: 'http://127.0.0.1:9' },
      smtp: { url: 'smtp://a:b@127.0.0.1:9' },
      twilio: { url: 'http://127.0.0.1:9' },
    };
    const make = () =>
      alertConfig(r as never, {
        checks: { c1: { dependsOn: ['c2'] }, c2: { dependsOn: ['group:edge'] } },
      });
    // c1 → c2 → the edge group, which holds c1: the issue names the path of c1's declaration.
    const issues = (() => {
      try {
        make();
        return [];
      } catch (error) {
        return (error as { issues: Array<{ path: unknown[]; message: string }> }).issues;
      }
    })();
    expect(issues).toEqual([
      {
        code: 'custom',
        path: ['accounts', 0, 'checks', 0, 'dependsOn'],
        message: 'dependency cycle: c1 → c2 → c1',
      },
    ]);
    expect(() => alertConfig(r as never, { checks: { c1: { dependsOn: ['nope'] } } })).toThrow(
      /no check .+nope.+ in this account to depend on/,
    );
  });
});

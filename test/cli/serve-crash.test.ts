// A kill at every dangerous moment (docs/alerts.md, "A kill at any moment"): `checkwall serve`
// (the built program) SIGKILLs itself at each CHECKWALL_TEST_CRASH_AT point, on SQLite and
// on PostgreSQL, and is started again without it. A receiver that de-duplicates by delivery
// id sees the failure page exactly once and the recovery exactly once, after its failure.
// npm test runs a lean subset; CHECKWALL_CRASH_TRIALS=all runs each point twice on each storage
// (BENCHMARKS.md has that outcome). A heartbeat not yet due beside it never pages.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CRASH_POINTS, type CrashPoint } from '../../src/server/crash-point.js';
import { json, startFixture, type Fixture } from '../helpers/fixture.js';
import { testPostgres } from '../helpers/postgres.js';
import { killStrays, startServe, tempDir, type ServeProcess } from '../helpers/serve.js';
import { TEST_ACCOUNT, TEST_KEY } from '../helpers/service.js';

const AUTH = {
  authorization: `Bearer ${TEST_KEY}`,
  'x-service-account': TEST_ACCOUNT,
  'content-type': 'application/json',
};
const postgres = testPostgres();

let target: Fixture;
let receiver: Fixture;
let healthy = true;
/** What the receiver took: delivery id → event, alert and check, and how often. */
const seen = new Map<
  string,
  { event: string; alertId: string | null; checkId: string | null; at: number; times: number }
>();
beforeAll(async () => {
  target = await startFixture((_req, res) => json(res, healthy ? 200 : 500, {}));
  receiver = await startFixture((req, res) => {
    const page = JSON.parse(req.body) as {
      deliveryId: string;
      event: string;
      alertId: string | null;
      check: { id: string } | null;
    };
    const was = seen.get(page.deliveryId);
    if (was) was.times++;
    else {
      const checkId = page.check?.id ?? null;
      seen.set(page.deliveryId, {
        event: page.event,
        alertId: page.alertId,
        checkId,
        at: seen.size,
        times: 1,
      });
    }
    json(res, 200, {});
  });
});
afterAll(async () => {
  await Promise.all([target.close(), receiver.close()]);
});
afterEach(killStrays);

function configFile(): string {
  const path = join(tempDir(), 'checkwall.json');
  const check = {
    ...{ id: 'api', name: 'API', type: 'api', target: `${target.url}/health`, frequency: '1s' },
    locations: ['eu-west'],
    alerts: { afterFailures: 1 },
  };
  // A job that has not pinged yet: unknown until its first due time plus grace (two minutes
  // after each start, longer than a trial), so it must never page here.
  const beat = {
    ...{ id: 'beat', name: 'Nightly', type: 'heartbeat', token: 'crash-test-heartbeat-token' },
    ...{ frequency: '1m', grace: '1m', locations: ['eu-west'], alerts: { afterFailures: 1 } },
  };
  const channel = {
    ...{ type: 'WEBHOOK', name: 'hook', subscriptions: { checks: ['api', 'beat'] } },
    config: { url: `${receiver.url}/hook`, method: 'POST' },
  };
  const account = {
    ...{ id: TEST_ACCOUNT, apiKeys: [TEST_KEY], checks: [check, beat], alertChannels: [channel] },
    locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
  };
  const delivery = {
    retryBaseSeconds: 0.2,
    retryMaxSeconds: 0.5,
    maxAttempts: 20,
    allowPrivateNetworks: true,
  };
  writeFileSync(path, JSON.stringify({ alertDelivery: delivery, accounts: [account] }));
  return path;
}

const pages = (event: string) => [...seen.values()].filter((p) => p.event === event && p.checkId === 'api');

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function call(svc: ServeProcess, method: string, path: string, body: unknown) {
  const res = await fetch(`${svc.url}${path}`, { method, headers: AUTH, body: JSON.stringify(body) });
  return (await res.json()) as { id?: string };
}

/** Brings the service to `point` (where it kills itself), step by step. */
async function toPoint(svc: ServeProcess, point: CrashPoint) {
  if (point === 'window ending') {
    const w = await call(svc, 'POST', '/v1/maintenance-windows', {
      ...{ name: 'deploy', reason: 'crash test', scope: { checks: ['api'] }, duration: '1m' },
    });
    healthy = false;
    await until('a held failure', async () => {
      const res = await fetch(`${svc.url}/v1/alert-notifications?limit=10`, { headers: AUTH });
      return ((await res.json()) as { data: unknown[] }).data.length > 0;
    });
    void call(svc, 'PATCH', `/v1/maintenance-windows/${w.id}`, { endsAt: 'now' }).catch(() => undefined);
    return;
  }
  if (point === 'recovery') {
    // Availability (24 h) at least 85 % after two failed runs, for the recovery to count.
    await until('a dozen runs', async () => (await results(svc)) >= 12, 30_000);
  }
  healthy = false;
  if (point !== 'recovery') return;
  await until('the failure page', () => pages('failure').length === 1);
  healthy = true;
}

async function results(svc: ServeProcess): Promise<number> {
  const res = await fetch(`${svc.url}/v1/check-results/api?limit=100`, { headers: AUTH });
  return ((await res.json()) as { data?: unknown[] }).data?.length ?? 0;
}

const STORAGES = ['SQLite', 'PostgreSQL'] as const;
// Each point on each storage is half a minute a trial on the shared machine: npm test runs each
// point once, on alternate storages, and the lease's point (delivery in flight) on both;
// CHECKWALL_CRASH_TRIALS=all runs every pair twice (BENCHMARKS.md, "Kills at the crash points").
const ALL = STORAGES.flatMap((storage) => CRASH_POINTS.map((point) => [storage, point, 1] as const));
const TRIALS =
  process.env.CHECKWALL_CRASH_TRIALS === 'all'
    ? [...ALL, ...ALL.map(([storage, point]) => [storage, point, 2] as const)]
    : ALL.filter(
        ([storage, point]) =>
          point === 'delivery in flight' ||
          CRASH_POINTS.indexOf(point) % 2 === (storage === 'SQLite' ? 0 : 1),
      );

describe('checkwall serve killed at each crash point', () => {
  it.each(TRIALS)(
    '%s, killed at "%s" (trial %i): every page once, none for a heartbeat not yet due, no recovery without its failure',
    async (storage, point) => {
      seen.clear();
      healthy = true;
      const db = storage === 'SQLite' ? join(tempDir(), 'crash.db') : await postgres.freshDatabase();
      const args = ['--config', configFile(), '--db', db, '--port', '0'];
      const first = await startServe(args, { CHECKWALL_TEST_CRASH_AT: point });
      await toPoint(first, point);
      const died = await Promise.race([first.exited, new Promise((r) => setTimeout(() => r(null), 15_000))]);
      expect(died, first.stderr()).toEqual({ code: null, signal: 'SIGKILL' });
      expect(first.stderr()).toContain(`CHECKWALL_TEST_CRASH_AT=${point}: killed here`);

      const again = await startServe(args);
      await until('the failure page after the restart', () => pages('failure').length >= 1, 20_000);
      if (point === 'recovery') await until('the recovery page', () => pages('recovery').length >= 1, 20_000);
      // Anything sent twice has gone by now (a killed holder's lease goes at the start).
      await new Promise((r) => setTimeout(r, 1_500));
      await again.stop();
      // Once each, by delivery id (a page sent just before the kill may arrive twice, same id).
      expect(pages('failure')).toHaveLength(1);
      expect([...seen.values()].filter((p) => p.checkId === 'beat')).toEqual([]);
      expect(pages('recovery')).toHaveLength(point === 'recovery' ? 1 : 0);
      for (const recovery of pages('recovery'))
        expect(pages('failure').some((f) => f.alertId === recovery.alertId && f.at < recovery.at)).toBe(true);
    },
    90_000,
  );
});

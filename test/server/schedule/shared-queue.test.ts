// Two service instances on one database share the schedule through the run
// queue (issue 12): each scheduled run (check x location x due time) is taken by
// exactly one of them and stored once, and neither counts the other's runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accountConfig } from '../../helpers/configs.js';
import { startFixture, type Fixture } from '../../helpers/fixture.js';
import { storedResults, until } from '../../helpers/runner.js';
import { startTestService, TEST_ACCOUNT, type TestService } from '../../helpers/service.js';

const CHECKS = ['c1', 'c2', 'c3'];
const LOCATIONS = ['eu-west', 'us-east'];
let services: TestService[] = [];
let target: Fixture | undefined;

afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  await target?.close();
  services = [];
});

const config = (base: string) =>
  accountConfig({
    locations: LOCATIONS.map((id) => ({ id, name: id, region: id })),
    checks: CHECKS.map((id) => ({ id, target: `${base}/${id}`, frequency: '2s' })),
  });

describe('several instances on one database', () => {
  it('store each scheduled run once, taken by exactly one instance', { timeout: 60_000 }, async () => {
    target = await startFixture((_req, res) => res.writeHead(200).end('ok'));
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-shared-')), 'shared.db');
    const cfg = config(target.url);
    services = [
      await startTestService({ config: cfg, dbPath, startScheduler: true }),
      await startTestService({ config: cfg, dbPath, startScheduler: true }),
    ];
    const [a, b] = services as [TestService, TestService];
    const all = async (s: TestService = a) =>
      (await Promise.all(CHECKS.map((checkId) => storedResults(s, checkId)))).flat();
    let seen = 0;
    await until(
      async () => (seen = (await all()).length) >= 36,
      40_000,
      () => `only ${seen} results`,
    );
    await Promise.all(services.map((s) => s.close()));
    const stored = a.runStats().stored + b.runStats().stored;
    // Read after both stopped, through a third instance that runs nothing.
    const reader = await startTestService({ config: cfg, dbPath });
    services.push(reader);
    const results = await all(reader);
    const keys = new Map<string, number>();
    for (const r of results) {
      // A stored result takes its run's id; attempt 1: no run was ever given twice.
      const run = (await reader.storage.findRun(r.id))!;
      expect(run, `result ${r.id} came from no queued run`).not.toBeNull();
      const key = `${run.checkId}/${run.locationId}/${run.dueAt}`;
      keys.set(key, (keys.get(key) ?? 0) + 1);
      expect(run.attempt).toBe(1);
    }
    expect([...keys.values()].every((n) => n === 1)).toBe(true);
    // Each instance counted only what it stored itself: together, every result exactly once.
    expect(stored).toBe(results.length);
  });

  it(
    'takes over a local run whose instance died holding it, once its lease ran out',
    { timeout: 30_000 },
    async () => {
      target = await startFixture((_req, res) => res.writeHead(200).end('ok'));
      const cfg = config(target.url);
      const s = await startTestService({ config: cfg, startScheduler: true, sweepEveryMs: 300 });
      services = [s];
      // A run held by an instance that is gone (its lease ended a minute ago); the sweep takes it
      // as soon as the slot is not running one of its own.
      const now = Date.now();
      const key = { accountId: TEST_ACCOUNT, checkId: 'c1', locationId: 'eu-west', dueAt: now - 3_600_000 };
      const dead = await s.storage.offerRun(key, now - 120_000, { token: 'instance-gone', leaseMs: 60_000 });
      await until(
        async () => (await s.storage.findRun(dead!.id))?.completedAt !== null,
        20_000,
        () => "the dead instance's run was never taken over",
      );
      const run = (await s.storage.findRun(dead!.id))!;
      expect(run.token).not.toBe('instance-gone');
      expect(run.attempt).toBe(2);
      expect((await storedResults(s, 'c1')).filter((r) => r.id === dead!.id)).toHaveLength(1);
    },
  );
});

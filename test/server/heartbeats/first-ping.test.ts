// No false alarm: a heartbeat never pinged is unknown, awaiting its first ping, until its
// first due time plus grace, also after a restart (file-backed SQLite, the fake clock);
// a cron schedule's status names it and its next due time in its zone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { accountConfig, TEST_ACCOUNT, TEST_KEY } from '../../helpers/configs.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { ping, runsOf, startOnFile, statusOf, watchUntil } from './helpers.js';

const open: { svc?: TestService | undefined; dir?: string | undefined } = {};
afterEach(async () => {
  await open.svc?.close();
  if (open.dir) rmSync(open.dir, { recursive: true, force: true });
  open.svc = open.dir = undefined;
});

const M = 60_000;
const checks = [
  { id: 'nightly', type: 'heartbeat', token: 'hb-nightly-0123456789', frequency: '1h', grace: '5m' },
  {
    id: 'berlin',
    type: 'heartbeat',
    token: 'hb-berlin-0123456789',
    frequency: undefined,
    schedule: '30 2 * * *',
    timezone: 'Europe/Berlin',
    grace: '10m',
  },
];

describe('a heartbeat awaiting its first ping', () => {
  it('is unknown until its first due time plus grace, again after a restart', async () => {
    const clock = createFakeClock(Date.parse('2026-03-28T12:00:00.000Z'));
    const dir = (open.dir = mkdtempSync(join(tmpdir(), 'checkwall-hb-')));
    const start = () => startOnFile(dir, checks, clock);
    let svc = (open.svc = await start());
    const t0 = clock.now();
    const first = await statusOf(svc, 'nightly');
    expect(first.status).toBe('unknown');
    expect(first.awaitingFirstPing).toEqual({ dueBy: new Date(t0 + 65 * M).toISOString() });
    expect(first.statusReason).toBe(
      `waiting for the first ping, due by ${new Date(t0 + 65 * M).toISOString()}`,
    );

    await svc.close();
    open.svc = undefined;
    clock.jump(3 * 60 * M); // down for 3 h: the first due time fell while it was down
    svc = open.svc = await start();
    const t1 = clock.now();
    const again = await statusOf(svc, 'nightly');
    expect(again.status).toBe('unknown');
    expect(again.awaitingFirstPing).toEqual({ dueBy: new Date(t1 + 65 * M).toISOString() });
    expect(await runsOf(svc, 'nightly')).toEqual([]);
  });

  it('a cron schedule names itself and its next due time across spring-forward', async () => {
    const clock = createFakeClock(Date.parse('2026-03-28T12:00:00.000Z'));
    const svc = (open.svc = await startTestService({ config: accountConfig({ checks }), clock }));
    const status = await statusOf(svc, 'berlin');
    expect(status.schedule.frequency).toBe('cron 30 2 * * * Europe/Berlin');
    // 02:30 does not exist on 29 March in Berlin: due at 03:00 CEST.
    expect(status.nextPingDue).toBe('2026-03-29T01:00:00.000Z');
    expect(status.schedule.nextRun).toBe('2026-03-29T01:00:00.000Z');
    expect(status.awaitingFirstPing).toEqual({ dueBy: '2026-03-29T01:10:00.000Z' });
  });

  it('a monthly job is watched by its period; a check that runs waits a week at most', async () => {
    const clock = createFakeClock(Date.parse('2026-03-02T12:00:00.000Z'));
    const monthly = {
      id: 'monthly',
      type: 'heartbeat',
      token: 'hb-monthly-0123456789',
      frequency: '720h',
      grace: '24h',
    };
    const svc = (open.svc = await startTestService({
      config: accountConfig({ checks: [monthly] }),
      clock,
      startScheduler: true,
    }));
    expect((await ping(svc, 'hb-monthly-0123456789')).status).toBe(200);
    const t0 = clock.now();
    const pinged = await statusOf(svc, 'monthly');
    expect(pinged.status).toBe('passing');
    expect(pinged.nextPingDue).toBe(new Date(t0 + 720 * 60 * M).toISOString());
    // No ping for the month and its day of grace: missed.
    clock.jump(744 * 60 * M + M);
    await watchUntil(clock, async () => (await statusOf(svc, 'monthly')).status === 'failing');
    expect((await runsOf(svc, 'monthly')).at(-1)?.heartbeat?.end).toBe('missed');

    const api = {
      id: 'slow',
      type: 'api',
      target: 'http://127.0.0.1:9/',
      frequency: '720h',
      locations: ['l'],
    };
    const refused = ServiceConfigSchema.safeParse({
      accounts: [
        {
          id: TEST_ACCOUNT,
          apiKeys: [TEST_KEY],
          locations: [{ id: 'l', name: 'L', region: 'r' }],
          checks: [{ ...api, name: 'Slow' }],
        },
      ],
    });
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({
        path: ['accounts', 0, 'checks', 0, 'frequency'],
        message: expect.stringMatching(/^must be at most 168h \(a week\) for a check that runs/),
      }),
    ]);
  });

  it('a schedule beside a frequency, or a bad zone, is a config error naming the check', () => {
    const parse = (check: Record<string, unknown>) =>
      ServiceConfigSchema.safeParse({
        accounts: [
          {
            id: TEST_ACCOUNT,
            apiKeys: [TEST_KEY],
            locations: [{ id: 'l', name: 'L', region: 'r' }],
            checks: [
              {
                id: 'job',
                name: 'Job',
                type: 'heartbeat',
                token: 'hb-job-0123456789',
                locations: ['l'],
                ...check,
              },
            ],
          },
        ],
      });
    const both = parse({ schedule: '0 3 * * *', frequency: '1h' });
    expect(both.success).toBe(false);
    expect(both.error!.issues[0]!.message).toContain('heartbeat check "job" has both schedule and frequency');
    const zone = parse({ schedule: '0 3 * * *', timezone: 'Europe/Nowhere' });
    expect(zone.error!.issues[0]).toMatchObject({ path: ['accounts', 0, 'checks', 0, 'timezone'] });
    const ok = parse({ schedule: '0 3 * * *', timezone: 'Europe/Berlin' });
    expect(ok.success && ok.data.accounts[0]!.checks[0]!.alerts.afterFailures).toBe(1);
  });
});

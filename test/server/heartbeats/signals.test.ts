// A job's signals at its ping URL, on the fake clock: each end stores one run
// (`triggeredBy: api`) with its duration from /start, its exit code and its output;
// /start and /log store none; a start with no end within maxRunTime stores one failed
// run (`triggeredBy: schedule`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountConfig } from '../../helpers/configs.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { JOB_CHECKS, ping, runsOf, statusOf, watchUntil } from './helpers.js';

const T0 = Date.parse('2026-11-23T02:59:00.000Z');
const clock = createFakeClock(T0);
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    startScheduler: true,
    clock,
    config: accountConfig({
      checks: JOB_CHECKS,
    }),
  });
});
afterAll(() => svc.close());

describe('heartbeat signals', () => {
  it('a run from /start to its exit code: its duration, its code and its output', async () => {
    // A parameter the ping does not know is left alone: a crontab's ping is never refused.
    expect((await ping(svc, 'hb-backup-0123456789/start?rid=run-1&host=db1')).status).toBe(200);
    expect((await runsOf(svc, 'backup')).length).toBe(0);
    expect((await statusOf(svc, 'backup')).runningSince).toBe(new Date(T0).toISOString());
    await clock.advance(42_000);
    expect((await ping(svc, 'hb-backup-0123456789/log', 'copying 3 volumes')).status).toBe(200);
    const out = await ping(svc, 'hb-backup-0123456789/1?rid=run-1', 'disk full\n\u001b[31mERROR\u001b[0m');
    expect(out.status).toBe(200);
    const [run] = await runsOf(svc, 'backup');
    expect(run).toMatchObject({
      status: 'failed',
      triggeredBy: 'api',
      duration: 42_000,
      runId: 'run-1',
      response: { statusCode: 1, body: 'disk full\n\u001b[31mERROR\u001b[0m', responseTime: 42_000 },
      error: { name: 'JobExitCode', message: 'the job exited with code 1' },
      heartbeat: { end: 'exit', exitCode: 1, rid: 'run-1', log: 'copying 3 volumes' },
    });
    expect(run!.startedAt).toBe(new Date(T0).toISOString());
    // One failed run fails a heartbeat.
    const status = await statusOf(svc, 'backup');
    expect(status.status).toBe('failing');
    expect(status.runningSince).toBeNull();
    expect(status.alertAfterFailures).toBe(1);
  });

  it('exit codes 0 and 143, /fail, and an end without its start (no duration)', async () => {
    for (const path of ['0', '143', 'fail', '']) {
      await clock.advance(1_000);
      await ping(svc, `hb-backup-0123456789${path ? `/${path}` : ''}`);
    }
    const runs = (await runsOf(svc, 'backup')).slice(1);
    expect(runs.map((r) => [r.status, r.heartbeat?.end, r.heartbeat?.exitCode, r.duration])).toEqual([
      ['success', 'exit', 0, 0],
      ['failed', 'exit', 143, 0],
      ['failed', 'fail', null, 0],
      ['success', 'success', null, 0],
    ]);
    expect(runs[1]!.error?.message).toBe('the job exited with code 143');
    expect((await statusOf(svc, 'backup')).locations[0]!.status).toBe('degraded');
  });

  it('refuses a bad signal or run id, naming it', async () => {
    expect((await ping(svc, 'hb-backup-0123456789/256')).status).toBe(400);
    expect((await ping(svc, 'hb-backup-0123456789/finish')).status).toBe(400);
    const bad = await ping(svc, `hb-backup-0123456789/start?rid=${'x'.repeat(65)}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('rid');
  });

  it('a start with no end within maxRunTime fails once, saying when it started', async () => {
    await clock.advance(60_000 - (clock.now() % 60_000) + 2_000); // the next minute's 2nd second
    const startedAt = clock.now();
    await ping(svc, 'hb-report-0123456789/start');
    await clock.advance(2 * 60_000 - 1_000);
    expect((await runsOf(svc, 'report')).length).toBe(0);
    await watchUntil(clock, async () => (await runsOf(svc, 'report')).length > 0);
    const runs = await runsOf(svc, 'report');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      status: 'failed',
      triggeredBy: 'schedule',
      heartbeat: { end: 'overrun', startedAt: new Date(startedAt).toISOString() },
      error: { name: 'RunTooLong' },
    });
    const hhmmss = new Date(startedAt).toISOString().slice(11, 19);
    expect(hhmmss).toMatch(/:02$/);
    expect(runs[0]!.error!.message).toBe(`started ${hhmmss}, no end after 2m`);
    await clock.advance(20_000);
    expect(await runsOf(svc, 'report')).toHaveLength(1);
  });
});

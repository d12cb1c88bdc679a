// A restart between a job's /start (and its /log) and its end loses neither: the run is
// timed from its /start and carries its notes, and a start whose end never comes still
// fails once after maxRunTime (file-backed SQLite, the fake clock).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../helpers/fake-clock.js';
import type { TestService } from '../../helpers/service.js';
import { JOB_CHECKS, ping, runsOf, startOnFile, statusOf, watchUntil } from './helpers.js';

const open: { svc?: TestService | undefined; dir?: string | undefined } = {};
afterEach(async () => {
  await open.svc?.close();
  if (open.dir) rmSync(open.dir, { recursive: true, force: true });
  open.svc = open.dir = undefined;
});

const T0 = Date.parse('2026-11-23T02:59:00.000Z');
describe('a heartbeat run across a restart', () => {
  it('is timed from its /start and keeps its /log notes; an unended start still overruns once', async () => {
    const clock = createFakeClock(T0);
    const dir = (open.dir = mkdtempSync(join(tmpdir(), 'checkwall-hb-restart-')));
    const start = () => startOnFile(dir, JOB_CHECKS, clock);
    let svc = (open.svc = await start());
    expect((await ping(svc, 'hb-backup-0123456789/start?rid=night-1')).status).toBe(200);
    expect((await ping(svc, 'hb-backup-0123456789/log', 'dumped 3 tables')).status).toBe(200);
    expect((await ping(svc, 'hb-report-0123456789/start')).status).toBe(200);

    await svc.close();
    open.svc = undefined;
    await clock.advance(90_000);
    svc = open.svc = await start();

    // The watch reads what the last one knew: the report's run is still going.
    await watchUntil(
      clock,
      async () => (await statusOf(svc, 'report')).runningSince === new Date(T0).toISOString(),
    );
    expect((await ping(svc, 'hb-backup-0123456789/0?rid=night-1', 'ok')).status).toBe(200);
    const [run] = await runsOf(svc, 'backup');
    expect(run).toMatchObject({
      status: 'success',
      duration: 90_000,
      runId: 'night-1',
      heartbeat: { end: 'exit', exitCode: 0, rid: 'night-1', log: 'dumped 3 tables' },
    });
    expect(run!.startedAt).toBe(new Date(T0).toISOString());

    // The report started before the restart and never ended: it overruns, once.
    await watchUntil(clock, async () => (await runsOf(svc, 'report')).length > 0);
    await clock.advance(60_000);
    const overruns = await runsOf(svc, 'report');
    expect(overruns).toHaveLength(1);
    expect(overruns[0]).toMatchObject({ status: 'failed', error: { name: 'RunTooLong' } });
    expect((await statusOf(svc, 'report')).runningSince).toBeNull();
  });
});

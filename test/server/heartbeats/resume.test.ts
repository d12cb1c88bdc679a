// A heartbeat resumed, or whose schedule a reload changed, awaits its first ping again
// (docs/service.md, "Heartbeats"), and its status says so at once: not only after the
// heartbeat watch's next turn and whatever the status had kept until its next due time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountConfig } from '../../helpers/configs.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { post } from '../../helpers/http.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { JOB_CHECKS, ping, statusOf } from './helpers.js';

const M = 60_000;
const clock = createFakeClock(Date.parse('2026-11-23T02:59:00.000Z'));
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    startScheduler: true,
    clock,
    config: accountConfig({ checks: JOB_CHECKS }),
  });
});
afterAll(() => svc.close());

const awaited = async (checkId: string) => {
  const s = await statusOf(svc, checkId);
  return [s.status, s.awaitingFirstPing?.dueBy ?? null];
};

describe('a heartbeat begun again', () => {
  it('resumed: waits for its first ping from the resume', async () => {
    expect((await ping(svc, 'hb-backup-0123456789')).status).toBe(200);
    await clock.advance(10_000);
    expect((await post(svc, '/v1/checks/backup/pause', {})).status).toBe(200);
    await clock.advance(10 * M);
    const resumedAt = clock.now();
    expect((await post(svc, '/v1/checks/backup/resume', {})).status).toBe(200);
    // Hourly, grace 5m: due by an hour and five minutes after the resume.
    expect(await awaited('backup')).toEqual(['unknown', new Date(resumedAt + 65 * M).toISOString()]);
  });

  it('a reload that changes its grace: waits for its first ping from the reload', async () => {
    expect((await ping(svc, 'hb-report-0123456789')).status).toBe(200);
    await clock.advance(10_000);
    expect((await statusOf(svc, 'report')).status).toBe('passing');
    const changed = JOB_CHECKS.map((c) => (c.id === 'report' ? { ...c, grace: '3m' } : c));
    await svc.reload(accountConfig({ checks: changed }));
    expect(await awaited('report')).toEqual(['unknown', new Date(clock.now() + 63 * M).toISOString()]);
  });
});

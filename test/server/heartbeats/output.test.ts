// A job's output longer than maxStoredBodyBytes is kept by its end, from a whole character:
// the bytes of one the cut split are dropped, not stored as replacement marks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountConfig } from '../../helpers/configs.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { JOB_CHECKS, ping, runsOf } from './helpers.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    clock: createFakeClock(),
    config: { ...accountConfig({ checks: JOB_CHECKS }), maxStoredBodyBytes: 16 },
  });
});
afterAll(() => svc.close());

describe('a job’s output kept by its end', () => {
  it('begins on a whole character', async () => {
    // 18 bytes: the last 16 begin one byte into the €.
    const output = `x€${'y'.repeat(14)}`;
    expect((await ping(svc, 'hb-backup-0123456789/0', output)).status).toBe(200);
    const [run] = await runsOf(svc, 'backup');
    expect(run!.response).toMatchObject({ body: 'y'.repeat(14), size: 18 });
  });
});

// A heartbeat check's status and runs, read as the console reads them, for the tests beside.
import {
  CheckResultListSchema,
  CheckStatusSchema,
  type CheckResult,
} from '../../../src/api/schemas/index.js';
import { TEST_ACCOUNT } from '../../helpers/configs.js';
import { get } from '../../helpers/http.js';
import { join } from 'node:path';
import { accountConfig, type TestCheck } from '../../helpers/configs.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import type { FakeClock } from '../../helpers/fake-clock.js';
import { WATCH_EVERY_MS } from '../../../src/server/heartbeats/watch.js';

export async function statusOf(svc: TestService, checkId: string) {
  const account = svc.accounts.byId(TEST_ACCOUNT)!;
  const check = svc.accounts.check(account, checkId)!;
  return CheckStatusSchema.parse(await svc.engine.statusOf(account, check));
}

export async function runsOf(svc: TestService, checkId: string): Promise<CheckResult[]> {
  const answer = await get(svc, `/v1/check-results/${checkId}?period=30d&limit=100&sortOrder=asc`);
  return CheckResultListSchema.parse(answer.body).data;
}

/** A ping of the job, as curl sends it. */
export const ping = (svc: TestService, path: string, body?: string) =>
  fetch(`${svc.url}/v1/heartbeats/${path}`, body === undefined ? {} : { method: 'POST', body });

/**
 * Moves the fake clock on by the watch's period until `seen` holds (a turn of the watch
 * reads storage in real time, so a turn may be passed over while the clock runs ahead).
 */
export async function watchUntil(
  clock: { advance(ms: number): Promise<void> },
  seen: () => Promise<boolean>,
  turns = 20,
): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (await seen()) return;
    await clock.advance(WATCH_EVERY_MS);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not seen after ${turns} turns of the heartbeat watch`);
}

/** A nightly backup (1 h, grace 5 m) and a report that may run at most 2 m: the jobs the signal tests ping. */
export const JOB_CHECKS = [
  { id: 'backup', type: 'heartbeat', token: 'hb-backup-0123456789', frequency: '1h', grace: '5m' },
  {
    id: 'report',
    type: 'heartbeat',
    token: 'hb-report-0123456789',
    frequency: '1h',
    grace: '1m',
    maxRunTime: '2m',
  },
];

/** A service with its scheduler on the fake clock, its SQLite file in `dir`: started again, it reads what the last one wrote. */
export const startOnFile = (dir: string, checks: TestCheck[], clock: FakeClock) =>
  startTestService({
    config: accountConfig({ checks }),
    dbPath: join(dir, 'db'),
    clock,
    startScheduler: true,
  });

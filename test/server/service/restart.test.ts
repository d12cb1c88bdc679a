// The service's start order, through a restart: a maintenance window that ends while the
// service is down pages once when it comes back (the end is looked for only once every
// listener is registered, from how far the database says ends were looked at), on a
// file-backed SQLite and the fake clock. The service is stopped 2 s before the end and
// started again 18 s or an hour after it. A kill between the page's claim and its
// notification is test/server/service/crash-points.test.ts's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertPayloadSchema } from '../../../src/api/schemas/index.js';
import { MaintenanceWindowSchema } from '../../../src/api/schemas/maintenance.js';
import {
  alertConfig,
  notifications,
  post,
  runner,
  startReceivers,
  type Receivers,
} from '../../helpers/alerting.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const open: { svc?: TestService | undefined; receivers?: Receivers | undefined; dir?: string } = {};
afterEach(async () => {
  await open.svc?.close();
  await open.receivers?.close();
  if (open.dir) rmSync(open.dir, { recursive: true, force: true });
  open.svc = open.receivers = open.dir = undefined;
});

describe('a restart around a maintenance window’s end', () => {
  it.each([
    ['18 s', 20_000],
    ['an hour', 3_600_000],
  ])(
    'pages once for a check still failing when the window ended while the service was down (back %s after)',
    async (_, downMs) => {
      const clock = createFakeClock();
      const dir = (open.dir = mkdtempSync(join(tmpdir(), 'checkwall-restart-')));
      const dbPath = join(dir, 'checkwall.db');
      const r = (open.receivers = await startReceivers());
      const config = alertConfig(r, { alerts: { c1: { afterFailures: 2 } } });
      const start = () => startTestService({ config, dbPath, clock });

      let svc = (open.svc = await start());
      const run = runner(svc, clock);
      await run('c1', ['success']);
      const made = await post(svc, '/v1/maintenance-windows', {
        name: 'deploy 4.2',
        reason: 'rolling deploy',
        scope: { checks: ['c1'] },
        duration: '2m',
      });
      expect(made.status).toBe(201);
      const window = MaintenanceWindowSchema.parse(made.body);
      await run('c1', ['failed', 'failed', 'failed']);
      await expect.poll(async () => (await notifications(svc)).map((n) => n.status)).toEqual(['suppressed']);

      await clock.advance(Date.parse(window.endsAt!) - 2_000 - clock.now());
      await svc.close();
      open.svc = undefined;
      expect(r.hook.seen).toEqual([]);
      await clock.advance(downMs);

      svc = open.svc = await start();
      await expect.poll(() => r.hook.seen.length).toBe(1);
      const page = AlertPayloadSchema.parse(JSON.parse(r.hook.seen[0]!.body));
      expect(page).toMatchObject({ event: 'failure', check: { id: 'c1' }, maintenance: { id: window.id } });
      // Once: the next ticks find the end claimed, and neither this start nor the next pages again.
      await clock.advance(5_000);
      await svc.close();
      svc = open.svc = await start();
      await clock.advance(5_000);
      const sent = (await notifications(svc)).filter((n) => n.status !== 'suppressed');
      expect(sent).toHaveLength(1);
      expect(r.hook.seen).toHaveLength(1);
    },
  );
});

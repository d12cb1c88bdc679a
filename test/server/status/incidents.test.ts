// Incidents and alert counts through the service: results arrive through its
// record path, the statuses endpoint shows what they did.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckStatusListSchema, type CheckStatus } from '../../../src/api/schemas/index.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

async function statuses(s: TestService, query = '') {
  const res = await fetch(`${s.url}/v1/check-statuses?limit=100&${query}`, {
    headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
  });
  return CheckStatusListSchema.parse(await res.json());
}
const c2 = async (s: TestService): Promise<CheckStatus> =>
  (await statuses(s)).data.find((x) => x.checkId === 'c2')!;

describe('incidents', () => {
  it('open when a check turns failing, close when it recovers, and the alert counts follow', async () => {
    const s = (svc = await startTestService({ checks: 3 }));
    const now = Date.now();
    const at = (secondsAgo: number) => ({ endAt: now - secondsAgo * 1000, spacingMs: 1000 });
    // Enough history that availability stays above 85 % through what follows.
    for (const location of ['eu-west', 'us-east'])
      await s.seed('c2', Array<'success'>(40).fill('success'), { location, ...at(120) });
    expect(await c2(s)).toMatchObject({ status: 'passing', currentIncident: null });

    // Failing at one location is regional: degraded, no incident.
    await s.seed('c2', ['failed', 'failed'], { location: 'eu-west', ...at(100) });
    expect(await c2(s)).toMatchObject({ status: 'degraded', currentIncident: null });
    expect((await c2(s)).alerts).toEqual({ active: 0, acknowledged: 0, total24h: 0 });

    // Failing at both: failing, and the result that made it so opens the incident.
    const [, turning] = await s.seed('c2', ['failed', 'failed'], { location: 'us-east', ...at(90) });
    const failing = await c2(s);
    expect(failing.status).toBe('failing');
    expect(failing.currentIncident).toEqual({
      id: expect.any(String),
      severity: 'critical',
      startedAt: turning!.finishedAt,
      title: expect.stringContaining('Check 0002 is failing'),
    });
    expect(failing.alerts).toEqual({ active: 1, acknowledged: 0, total24h: 1 });
    const list = await statuses(s, 'hasIncident=true');
    expect(list.data.map((x) => x.checkId)).toEqual(['c2']);
    expect(list.meta.summary).toMatchObject({ failing: 1, activeIncidents: 1, activeAlerts: 1 });

    // More failures keep the same incident open.
    await s.seed('c2', ['failed'], { location: 'eu-west', ...at(85) });
    expect((await c2(s)).currentIncident?.id).toBe(failing.currentIncident!.id);

    // One location back: degraded, which is a recovery.
    await s.seed('c2', ['success'], { location: 'eu-west', ...at(80) });
    const recovered = await c2(s);
    expect(recovered).toMatchObject({ status: 'degraded', currentIncident: null });
    expect(recovered.alerts).toEqual({ active: 0, acknowledged: 0, total24h: 1 });
    expect((await statuses(s, 'hasIncident=true')).data).toEqual([]);

    // A second episode is a new incident, and a second alert in 24 h.
    await s.seed('c2', ['failed', 'failed'], { location: 'eu-west', ...at(60) });
    const again = await c2(s);
    expect(again.status).toBe('failing');
    expect(again.currentIncident?.id).not.toBe(failing.currentIncident!.id);
    expect(again.alerts).toEqual({ active: 1, acknowledged: 0, total24h: 2 });
    expect((await statuses(s)).data.filter((x) => x.currentIncident !== null)).toHaveLength(1);
  });

  it('open once when results of one check arrive together', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-')), 'together.db');
    const s = (svc = await startTestService({ dbPath }));
    const now = Date.now();
    const at = (secondsAgo: number) => ({ endAt: now - secondsAgo * 1000, spacingMs: 1000 });
    for (const location of ['eu-west', 'us-east'])
      await s.seed('c2', Array<'success'>(40).fill('success'), { location, ...at(120) });
    await s.seed('c2', ['failed', 'failed'], { location: 'eu-west', ...at(100) });
    // Three results at once, each enough to turn the check failing: storage answers
    // asynchronously, and each would see no incident open if they were not taken in turn.
    await Promise.all([
      s.seed('c2', ['failed'], { location: 'us-east', ...at(92) }),
      s.seed('c2', ['failed'], { location: 'us-east', ...at(91) }),
      s.seed('c2', ['failed'], { location: 'eu-west', ...at(90) }),
    ]);
    const status = await c2(s);
    expect(status).toMatchObject({ status: 'failing', alerts: { active: 1, total24h: 1 } });
    const db = new Database(dbPath, { readonly: true });
    const incidents = db.prepare("SELECT id FROM incidents WHERE check_id = 'c2'").all();
    db.close();
    expect(incidents).toEqual([{ id: status.currentIncident!.id }]);
  });

  it('keep an open incident across a restart of the service', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-')), 'incidents.db');
    const first = await startTestService({ dbPath });
    await first.seed('c1', ['failed', 'failed'], { location: 'eu-west', spacingMs: 1000 });
    await first.seed('c1', ['failed', 'failed'], { location: 'us-east', spacingMs: 1000 });
    const open = (await statuses(first)).data.find((x) => x.checkId === 'c1')!.currentIncident;
    expect(open).not.toBeNull();
    await first.close();
    const s = (svc = await startTestService({ dbPath }));
    const after = (await statuses(s)).data.find((x) => x.checkId === 'c1')!;
    expect(after.currentIncident).toEqual(open);
    expect(after.alerts.total24h).toBe(1);
  });
});

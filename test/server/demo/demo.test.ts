// The demo as a fresh `checkwall demo` starts it: its own loopback targets,
// the demo config and the heartbeat pinger, on the real scheduler. Within a
// bounded wait every condition the demo promises shows in real statuses and
// results; nothing here is seeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CheckResultListSchema,
  CheckStatusListSchema,
  type CheckStatus,
} from '../../../src/api/schemas/index.js';
import { startDemo, type Demo } from '../../../src/server/demo/index.js';
import { createService, type Service } from '../../../src/server/service/index.js';
import { runWorkerEntry } from '../../helpers/run-worker.js';

let demo: Demo;
let svc: Service;
beforeAll(async () => {
  demo = await startDemo({});
  svc = await createService({
    config: demo.config,
    dbPath: ':memory:',
    workers: { entry: await runWorkerEntry() },
  });
  demo.startPinger(svc.url);
});
afterAll(async () => {
  await svc.close();
  await demo.close();
});

const headers = () => ({
  authorization: `Bearer ${demo.credentials.apiKey}`,
  'x-service-account': demo.credentials.accountId,
});
async function statuses(): Promise<Map<string, CheckStatus>> {
  const res = await fetch(`${svc.url}/v1/check-statuses?limit=100`, { headers: headers() });
  return new Map(CheckStatusListSchema.parse(await res.json()).data.map((s) => [s.checkId, s]));
}
async function results(checkId: string) {
  const res = await fetch(`${svc.url}/v1/check-results/${checkId}?limit=100`, { headers: headers() });
  return CheckResultListSchema.parse(await res.json()).data;
}

describe('the demo', () => {
  it('serves its public dashboard as a status page', async () => {
    const res = await fetch(`${svc.url}/status/status`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<h1 class="sp-name">Public status</h1>');
    expect(html).toContain('data-check-id="homepage-api"');
  });

  it('declares about twenty checks of every type over three locations', () => {
    const [account] = demo.config.accounts;
    expect(account!.checks.length).toBeGreaterThanOrEqual(18);
    expect(new Set(account!.checks.map((c) => c.type))).toEqual(
      new Set(['api', 'url', 'tcp', 'heartbeat', 'browser', 'multistep']),
    );
    expect(account!.locations).toHaveLength(3);
    expect(account!.groups.length).toBeGreaterThanOrEqual(3);
    expect(account!.dashboards).toHaveLength(3);
    expect(account!.dashboards.filter((d) => !d.isPrivate)).toHaveLength(1);
    expect(new Set(account!.alertChannels.map((c) => c.type))).toEqual(
      new Set(['EMAIL', 'CHAT', 'WEBHOOK', 'SMS', 'PHONE']),
    );
    for (const check of account!.checks)
      expect(['10s', '15s', '20s', '30s', '60s']).toContain(check.frequency);
  });

  it('shows passing, degraded, failing, a regional outage, TLS, TCP and heartbeats within seconds', async () => {
    const until = async (what: string, ok: (s: Map<string, CheckStatus>) => boolean) =>
      expect
        .poll(async () => ok(await statuses()), { timeout: 30_000, interval: 500, message: what })
        .toBe(true);
    const is = (id: string, status: string) => (s: Map<string, CheckStatus>) => s.get(id)?.status === status;

    await until('healthy and fast is passing', is('homepage-api', 'passing'));
    await until('slow is degraded', is('search-api', 'degraded'));
    expect((await statuses()).get('search-api')!.statusReason).toMatch(/\d+ ms, above 500 ms/);

    await until('connection refused is failing', is('billing-legacy', 'failing'));
    expect((await results('billing-legacy'))[0]).toMatchObject({
      status: 'failed',
      response: null,
      error: { name: 'ConnectionRefusedError' },
    });

    await until('a failing JSON assertion is failing', is('orders-api', 'failing'));
    const [orders] = await results('orders-api');
    expect(orders!.assertions.find((a) => a.source === 'JSON_BODY')).toMatchObject({
      property: '$.status',
      passed: false,
      actual: 'degraded',
    });

    await until('the regional outage fails at one location only', (s) => {
      const locations = s.get('checkout-api')?.locations ?? [];
      return (
        locations.find((l) => l.id === 'ap-south')?.status === 'failing' &&
        locations.filter((l) => l.id !== 'ap-south').every((l) => l.status === 'passing')
      );
    });
    const checkout = await results('checkout-api');
    expect(new Set(checkout.filter((r) => r.status === 'failed').map((r) => r.location.id))).toEqual(
      new Set(['ap-south']),
    );
    // One location of three failing is degraded by the location rule; its availability
    // (two runs in three) below 85 % makes the check failing overall.
    expect((await statuses()).get('checkout-api')!.status).toBe('failing');

    const secure = await results('secure-api');
    expect(secure.find((r) => r.status === 'success' && r.timing.tls !== undefined)).toBeDefined();
    const tcp = await results('cache-tcp');
    expect(tcp.find((r) => r.status === 'success' && r.request.method === 'TCP')).toBeDefined();
    const worker = await results('queue-worker');
    expect(worker.find((r) => r.status === 'success' && r.checkType === 'heartbeat')).toBeDefined();

    const blog = (await statuses()).get('blog')!;
    expect(blog).toMatchObject({ status: 'unknown', schedule: { enabled: false, nextRun: null } });
    expect(await results('blog')).toEqual([]);
  }, 60_000);

  it('serves its public dashboard with the current statuses of its checks', async () => {
    const res = await fetch(`${svc.url}/v1/public/dashboards/status`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { checks: Array<{ checkId: string }> } };
    expect(body.data.checks.map((c) => c.checkId).sort()).toEqual([
      'homepage-api',
      'marketing-site',
      'status-page',
    ]);
  });
});

// GET /metrics over real HTTP: a read key alone (as Prometheus sends it) gets its
// account's series and nothing of another account's; no key or a wrong one is 401;
// the per-check series follow GET /v1/check-statuses, are kept up to 15 s on the
// service's clock, and promtool finds nothing to say of the checkwall_* families.
// The sidecar port serves every account's series with no key.
import { crc32, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import { SNAPSHOT_MS } from '../../../src/server/metrics/snapshot.js';
import { familiesOf, hasPromtool, promtool, sample } from '../../helpers/prometheus.js';
import {
  OTHER_ACCOUNT,
  OTHER_KEY,
  startTestService,
  testConfig,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestService,
} from '../../helpers/service.js';

const READ_KEY = 'cw_read_metrics_0123456789';

function config(sidecar = false) {
  const base = testConfig(3);
  const [ours, ...rest] = base.accounts;
  return {
    ...base,
    accounts: [
      {
        ...ours!,
        apiKeys: [...ours!.apiKeys, { key: READ_KEY, name: 'prometheus', role: 'read' as const }],
        locations: [
          ...ours!.locations,
          { id: 'far', name: 'Far', region: 'x', remote: true, runnerToken: 'runner-token-0123456789' },
        ],
      },
      ...rest,
    ],
    ...(sidecar ? { metrics: { port: 0, host: '127.0.0.1' } } : {}),
  };
}

let svc: TestService;
let shift = 0;
beforeAll(async () => {
  svc = await startTestService({ config: config(), now: () => Date.now() + shift });
  await svc.seed('c1', ['failed', 'failed', 'failed'], { responseTime: 250 });
  await svc.seed('c2', ['success', 'success'], { responseTime: 120 });
});
afterAll(() => svc?.close());

const scrape = (key?: string, headers: Record<string, string> = {}) =>
  fetch(`${svc.url}/metrics`, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });

describe('GET /metrics', () => {
  it('answers a read key alone with its account’s series, as the statuses list says', async () => {
    const res = await scrape(READ_KEY);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await res.text();
    const list = CheckStatusListSchema.parse(
      await (
        await fetch(`${svc.url}/v1/check-statuses`, {
          headers: { authorization: `Bearer ${READ_KEY}`, 'x-service-account': TEST_ACCOUNT },
        })
      ).json(),
    );
    for (const s of list.data) {
      const labels = { account: TEST_ACCOUNT, check_id: s.checkId, check_name: s.checkName };
      expect(sample(text, 'checkwall_check_up', labels)).toBe(s.status === 'passing' ? 1 : 0);
      expect(sample(text, 'checkwall_check_status', { ...labels, status: s.status })).toBe(1);
      expect(sample(text, 'checkwall_check_in_maintenance', labels)).toBe(s.maintenance ? 1 : 0);
      // To a millionth (check-families.ts rounds), and absent where the list says null.
      const near = (value: number | undefined, expected: number | null, scale: number) =>
        expected === null ? expect(value).toBeUndefined() : expect(value).toBeCloseTo(expected / scale, 6);
      near(
        sample(text, 'checkwall_check_availability_ratio', { ...labels, window: '24h' }),
        s.availability.percentage,
        100,
      );
      const { averageResponseTime: avg, p95ResponseTime: p95 } = s.performance;
      near(sample(text, 'checkwall_check_response_time_seconds', { ...labels, stat: 'avg' }), avg, 1000);
      near(sample(text, 'checkwall_check_response_time_seconds', { ...labels, stat: 'p95' }), p95, 1000);
    }
    const c1 = { check_id: 'c1', check_type: 'api', group: 'edge' };
    expect(sample(text, 'checkwall_check_status', { ...c1, status: 'failing' })).toBe(1);
    expect(sample(text, 'checkwall_check_status', { ...c1, status: 'passing' })).toBe(0);
    expect(sample(text, 'checkwall_check_availability_ratio', { ...c1, window: '24h' })).toBe(0);
    expect(sample(text, 'checkwall_check_response_time_seconds', { ...c1, stat: 'avg' })).toBe(0.25);
    expect(sample(text, 'checkwall_check_runs_total', { ...c1, result: 'failed' })).toBe(3);
    expect(sample(text, 'checkwall_check_runs_total', { check_id: 'c2', result: 'success' })).toBe(2);
    expect(sample(text, 'checkwall_check_availability_ratio', { check_id: 'c2' })).toBe(1);
    // Never seen a certificate (plain http): no series, not a zero.
    expect(text).not.toContain('checkwall_check_certificate_expiry_timestamp_seconds{');
    // The service's own families and the client's defaults.
    expect(text).toContain('# TYPE checkwall_schedule_lag_seconds histogram');
    expect(text).toContain('checkwall_runs_skipped_total{reason="behind"} 0');
    expect(text).toContain('checkwall_alert_outbox_pending 0');
    expect(text).toContain('checkwall_storage_operation_duration_seconds_count{operation="insertResult"}');
    expect(text).toContain('process_cpu_seconds_total');
    // A remote location no runner ever called: none in touch, no last contact.
    expect(sample(text, 'checkwall_location_runners', { account: TEST_ACCOUNT, location: 'far' })).toBe(0);
    expect(text).not.toContain('checkwall_location_runner_last_seen_timestamp_seconds{');
    // Nothing of the other account.
    expect(text).not.toContain(OTHER_ACCOUNT);
    expect(text).not.toContain('check_id="secret"');
  });

  it('refuses no key and an unknown key with 401, before any series', async () => {
    for (const res of [await scrape(), await scrape('cw_not_a_key_0123456789')]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.text()).not.toContain('checkwall_');
    }
  });

  it('refuses a key with X-Service-Account naming another account (403)', async () => {
    const res = await scrape(READ_KEY, { 'x-service-account': OTHER_ACCOUNT });
    expect(res.status).toBe(403);
  });

  it('answers another account’s key with that account’s series only', async () => {
    const text = await (await scrape(OTHER_KEY)).text();
    expect(sample(text, 'checkwall_check_up', { account: OTHER_ACCOUNT, check_id: 'secret' })).toBe(0);
    expect(text).not.toContain(TEST_ACCOUNT);
  });

  it('keeps the per-check series up to 15 s on the service’s clock, then reads them anew', async () => {
    const before = await (await scrape(TEST_KEY)).text();
    const runs = sample(before, 'checkwall_check_runs_total', { check_id: 'c3', result: 'success' });
    await svc.seed('c3', ['success'], { endAt: Date.now() + shift - 500 });
    const kept = await (await scrape(TEST_KEY)).text();
    expect(sample(kept, 'checkwall_check_runs_total', { check_id: 'c3', result: 'success' })).toBe(runs);
    shift += SNAPSHOT_MS;
    const fresh = await (await scrape(TEST_KEY)).text();
    expect(sample(fresh, 'checkwall_check_runs_total', { check_id: 'c3', result: 'success' })).toBe(
      runs! + 1,
    );
    // A family no series of which moved is kept as it was; one that moved is written anew.
    expect(sample(fresh, 'checkwall_check_status', { check_id: 'c1', status: 'failing' })).toBe(1);
    expect(sample(fresh, 'checkwall_check_up', { check_id: 'c3' })).toBe(1);
    await svc.seed('c3', ['failed', 'failed', 'failed'], { endAt: Date.now() + shift - 100, spacingMs: 100 });
    shift += SNAPSHOT_MS;
    const moved = await (await scrape(TEST_KEY)).text();
    expect(sample(moved, 'checkwall_check_up', { check_id: 'c3' })).toBe(0);
    expect(sample(moved, 'checkwall_check_status', { check_id: 'c3', status: 'failing' })).toBe(1);
    expect(sample(moved, 'checkwall_check_status', { check_id: 'c1', status: 'failing' })).toBe(1);
  });

  it('sends one gzip stream to a client that takes it, and the same text to one that does not', async () => {
    const ask = (encoding?: string) =>
      request(`${svc.url}/metrics`, {
        headers: {
          authorization: `Bearer ${READ_KEY}`,
          ...(encoding ? { 'accept-encoding': encoding } : {}),
        },
      });
    const zipped = await ask('gzip');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const body = Buffer.from(await zipped.body.arrayBuffer());
    const inflated = gunzipSync(body);
    // One member, not several: its trailer's CRC-32 and length are the whole text's (curl --compressed
    // reads the first member only).
    expect(body.readUInt32LE(body.length - 8)).toBe(crc32(inflated));
    expect(body.readUInt32LE(body.length - 4)).toBe(inflated.length);
    const plain = await ask();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const text = await plain.body.text();
    // The per-check part is the same snapshot; the instance's own families after it are read at each scrape.
    const checks = (t: string) => t.slice(0, t.indexOf('# HELP process_cpu_user_seconds_total'));
    expect(checks(text)).toBe(checks(inflated.toString('utf8')));
    expect(checks(text)).toContain('checkwall_check_up{account=');
    expect(text).toContain('# TYPE checkwall_schedule_lag_seconds histogram');
  });

  it.skipIf(!hasPromtool)(
    'passes promtool check metrics (checkwall_* families; needs promtool)',
    async () => {
      const text = await (await scrape(READ_KEY)).text();
      const ours = familiesOf(text, 'checkwall_');
      expect(ours).toContain('checkwall_check_up{');
      expect(promtool(['check', 'metrics'], ours)).toEqual({ code: 0, output: '' });
    },
  );
});

describe('the sidecar port (metrics.port)', () => {
  it('serves every account’s series with no key, and nothing else', async () => {
    const side = await startTestService({ config: config(true) });
    try {
      expect(side.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const res = await fetch(side.metricsUrl!);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(sample(text, 'checkwall_check_up', { account: TEST_ACCOUNT, check_id: 'c1' })).toBe(0);
      expect(sample(text, 'checkwall_check_up', { account: OTHER_ACCOUNT, check_id: 'secret' })).toBe(0);
      // One family, once: every account's series under one HELP and TYPE.
      expect(text.match(/# TYPE checkwall_check_up /g)).toHaveLength(1);
      const other = await fetch(side.metricsUrl!.replace('/metrics', '/v1/check-statuses'));
      expect(other.status).toBe(404);
      expect(((await other.json()) as { message: string }).message).toContain('serves GET /metrics');
    } finally {
      await side.close();
    }
  });
});

describe('the service’s own families, from a running scheduler', () => {
  it('counts runs due and stored and observes how late each started', async () => {
    const base = testConfig(1);
    const [ours] = base.accounts;
    const running = await startTestService({
      startScheduler: true,
      config: {
        ...base,
        accounts: [{ ...ours!, checks: [{ ...ours!.checks[0]!, frequency: '2s', locations: ['eu-west'] }] }],
      },
    });
    try {
      const read = async () => {
        const res = await fetch(`${running.url}/metrics`, {
          headers: { authorization: `Bearer ${TEST_KEY}` },
        });
        const text = await res.text();
        const value = (name: string) =>
          Number(
            /^(\S+) (\S+)$/m.exec(text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '')?.[2] ?? NaN,
          );
        return {
          due: value('checkwall_runs_due_total'),
          stored: value('checkwall_runs_stored_total'),
          lagged: value('checkwall_schedule_lag_seconds_count'),
        };
      };
      await expect
        .poll(async () => (await read()).stored, { timeout: 15_000, interval: 200 })
        .toBeGreaterThanOrEqual(1);
      const seen = await read();
      expect(seen.due).toBeGreaterThanOrEqual(seen.stored);
      expect(seen.lagged).toBeGreaterThanOrEqual(seen.stored);
    } finally {
      await running.close();
    }
  });
});

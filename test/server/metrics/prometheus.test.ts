// End to end with a real Prometheus (Debian's package; .ci/run installs it): it scrapes
// the service every second with a read key as its bearer token, and its query API
// answers checkwall_check_up for a failing and a passing check as GET
// /v1/check-statuses says them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import {
  hasPrometheus,
  PROMETHEUS,
  startPrometheus,
  type PrometheusServer,
} from '../../helpers/prometheus.js';
import { startTestService, testConfig, TEST_ACCOUNT, type TestService } from '../../helpers/service.js';

const READ_KEY = 'cw_read_prometheus_0123456789';

interface QueryAnswer {
  status: string;
  data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
}

describe.skipIf(!hasPrometheus)(`a real Prometheus scraping the service (needs ${PROMETHEUS})`, () => {
  let svc: TestService;
  let prometheus: PrometheusServer;
  beforeAll(async () => {
    const base = testConfig(2);
    const [ours, ...rest] = base.accounts;
    svc = await startTestService({
      config: {
        ...base,
        accounts: [
          { ...ours!, apiKeys: [...ours!.apiKeys, { key: READ_KEY, name: 'prometheus', role: 'read' }] },
          ...rest,
        ],
      },
    });
    await svc.seed('c1', ['failed', 'failed', 'failed']);
    await svc.seed('c2', ['success', 'success']);
    prometheus = await startPrometheus(new URL(svc.url).host, READ_KEY);
  });
  afterAll(async () => {
    await prometheus?.stop();
    await svc?.close();
  });

  /** checkwall_check_up by check id, as Prometheus answers it now (empty until its first scrape). */
  async function upByCheck(): Promise<Record<string, number>> {
    const query = encodeURIComponent(`checkwall_check_up{account="${TEST_ACCOUNT}"}`);
    const res = await fetch(`${prometheus.url}/api/v1/query?query=${query}`).catch(() => null);
    if (!res?.ok) return {};
    const answer = (await res.json()) as QueryAnswer;
    return Object.fromEntries(answer.data.result.map((r) => [r.metric['check_id'], Number(r.value[1])]));
  }

  it('answers checkwall_check_up for a failing and a passing check as the statuses list says', async () => {
    const list = CheckStatusListSchema.parse(
      await (
        await fetch(`${svc.url}/v1/check-statuses`, {
          headers: { authorization: `Bearer ${READ_KEY}`, 'x-service-account': TEST_ACCOUNT },
        })
      ).json(),
    );
    const status = Object.fromEntries(list.data.map((s) => [s.checkId, s.status]));
    expect(status).toMatchObject({ c1: 'failing', c2: 'passing' });
    await expect
      .poll(upByCheck, { timeout: 15_000, interval: 250 })
      .toEqual({ c1: 0, c2: 1 })
      .catch((error: Error) => {
        throw new Error(`${error.message}\nPrometheus said:\n${prometheus.log()}`);
      });
    // The scrape was the service's, with the key: Prometheus counts its target up.
    const query = encodeURIComponent('up{job="checkwall"}');
    const up = (await (await fetch(`${prometheus.url}/api/v1/query?query=${query}`)).json()) as QueryAnswer;
    expect(up.data.result[0]?.value[1]).toBe('1');
  });
});

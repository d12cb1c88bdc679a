// The demo's alerts reach its own loopback receivers: a failing demo check is
// delivered to a channel of every type, with no outside network.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertNotificationListSchema } from '../../../src/api/schemas/index.js';
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
});
afterAll(async () => {
  await svc?.close();
  await demo?.close();
});

async function sentTypes(): Promise<string[]> {
  const res = await fetch(`${svc.url}/v1/alert-notifications?status=sent&limit=100`, {
    headers: {
      authorization: `Bearer ${demo.credentials.apiKey}`,
      'x-service-account': demo.credentials.accountId,
    },
  });
  const list = AlertNotificationListSchema.parse(await res.json()).data;
  return [...new Set(list.map((n) => n.channel.type))].sort();
}

describe('the demo, alerting', () => {
  it('delivers a failing check to a channel of every type on loopback', async () => {
    expect(await svc.alerting.warning()).toBeNull();
    await expect
      .poll(sentTypes, { timeout: 45_000, interval: 500 })
      .toEqual(['CHAT', 'EMAIL', 'PHONE', 'SMS', 'WEBHOOK']);
  });
});

// Alert delivery in `checkwall serve` as a user runs it (the built program):
// a notification pending when the service is killed is delivered after the
// restart, once, under the delivery id it had; secrets never reach its output.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AlertNotificationListSchema } from '../../src/api/schemas/index.js';
import { closedPortUrl, json, startFixture, type Fixture } from '../helpers/fixture.js';
import { killStrays, startServe, tempDir } from '../helpers/serve.js';
import { TEST_ACCOUNT, TEST_KEY } from '../helpers/service.js';

const SIGNING_SECRET = 'whsec_serve_test_secret_0123456789';
const HEADER_SECRET = 'Bearer hook-header-secret-0123456789';
const AUTH = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

let hook: Fixture;
let accept = false;
/** Delivery ids the receiver took (answered 2xx), with how many times. */
const taken = new Map<string, number>();
beforeAll(async () => {
  hook = await startFixture((req, res) => {
    if (!accept) return json(res, 503, {});
    const id = String(req.headers['x-checkwall-delivery']);
    taken.set(id, (taken.get(id) ?? 0) + 1);
    json(res, 200, {});
  });
});
afterAll(() => hook.close());
afterEach(killStrays);

async function config(dir: string): Promise<string> {
  const path = join(dir, 'checkwall.json');
  const body = {
    alertDelivery: { retryBaseSeconds: 0.5, retryMaxSeconds: 1, maxAttempts: 20, allowPrivateNetworks: true },
    accounts: [
      {
        id: TEST_ACCOUNT,
        apiKeys: [TEST_KEY],
        locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
        checks: [
          {
            id: 'api',
            name: 'API',
            type: 'api',
            target: `${await closedPortUrl()}/health`,
            frequency: '1s',
            locations: ['eu-west'],
          },
        ],
        dashboards: [
          { id: 'public', name: 'Public', customUrl: 'status', isPrivate: false, checkIds: ['api'] },
        ],
        alertChannels: [
          {
            type: 'WEBHOOK',
            name: 'hook',
            signingSecret: SIGNING_SECRET,
            subscriptions: { checks: ['api'] },
            config: {
              url: `${hook.url}/hook`,
              method: 'POST',
              headers: [{ key: 'Authorization', value: HEADER_SECRET }],
            },
          },
          {
            type: 'EMAIL',
            name: 'mail',
            subscriptions: { checks: ['api'] },
            config: { address: 'a@example.test' },
          },
        ],
      },
    ],
  };
  writeFileSync(path, JSON.stringify(body));
  return path;
}

async function log(url: string) {
  const res = await fetch(`${url}/v1/alert-notifications?limit=100`, { headers: AUTH });
  return AlertNotificationListSchema.parse(await res.json()).data;
}

describe('checkwall serve, alerting', () => {
  it('delivers after a SIGKILL what was pending, once per delivery id, and prints no secret', async () => {
    const dir = tempDir();
    const file = await config(dir);
    const args = ['--config', file, '--db', join(dir, 'alerts.db'), '--port', '0'];
    const first = await startServe(args);
    // The receiver refuses (503): the failure notice is pending, retried, when the service dies.
    await expect.poll(() => hook.seen.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const pending = (await log(first.url)).find((n) => n.channel.name === 'hook')!;
    expect(pending).toMatchObject({ event: 'failure', status: 'pending', lastError: 'HTTP 503' });
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');

    accept = true;
    const second = await startServe(args);
    await expect
      .poll(async () => (await log(second.url)).find((n) => n.id === pending.id)?.status, { timeout: 20_000 })
      .toBe('sent');
    expect([...taken]).toEqual([[pending.id, 1]]);
    expect(new Set(hook.seen.map((s) => s.headers['x-checkwall-delivery']))).toEqual(new Set([pending.id]));
    const notices = await log(second.url);
    expect(
      notices
        .filter((n) => n.event === 'failure')
        .map((n) => n.channel.name)
        .sort(),
    ).toEqual(['hook', 'mail']);
    await second.stop();

    const output = [first.stdout(), first.stderr(), second.stdout(), second.stderr()].join('\n');
    for (const secret of [TEST_KEY, SIGNING_SECRET, HEADER_SECRET]) expect(output).not.toContain(secret);
    expect(JSON.stringify(notices)).not.toContain(SIGNING_SECRET);
    expect(
      first.stderr().match(/warning: alert channels that cannot deliver: "mail" \(EMAIL\)/g),
    ).toHaveLength(1);
    // A public dashboard and no publicUrl: said once at start, its feed's links relative (docs/decisions.md).
    expect(first.stderr().match(/warning: publicUrl: not set/g)).toHaveLength(1);
  });
});

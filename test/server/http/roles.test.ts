// Keys that say who may do what (issue 32): every account route × every role is
// answered or refused with 403 and the role it needs (walking route-roles.ts);
// /v1/me names the key; a read key sees channels' secrets masked; acknowledging,
// creating and testing a channel are in the audit trail under the key's name.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuditEventListSchema,
  MeSchema,
  ROLES,
  roleAllows,
  type Role,
} from '../../../src/api/schemas/actions.js';
import { AlertChannelListSchema, ApiErrorBodySchema } from '../../../src/api/schemas/index.js';
import { plainKeyName, type ServiceConfig } from '../../../src/server/config/schema.js';
import { createAccounts } from '../../../src/server/config/accounts.js';
import { HttpConfigSchema } from '../../../src/server/config/schema.js';
import { registerGuards } from '../../../src/server/http/guard.js';
import { createStrangerLimits } from '../../../src/server/http/rate-limits.js';
import { systemClock } from '../../../src/domain/clock.js';
import { ROUTE_ROLES } from '../../../src/server/http/route-roles.js';
import {
  startTestService,
  testConfig,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestService,
} from '../../helpers/service.js';
import { openAlertRow } from '../../helpers/storages.js';

const READ_KEY = 'cw_read_0123456789abcdef';
const OPERATE_KEY = 'cw_operate_0123456789abcdef';
const ADMIN_KEY = 'cw_admin_0123456789abcdef';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const KEYS: Record<Role, { key: string; name: string }> = {
  read: { key: READ_KEY, name: 'viewer' },
  // Configured by its digest only: the config holds no secret.
  operate: { key: OPERATE_KEY, name: 'oncall' },
  admin: { key: ADMIN_KEY, name: 'platform' },
};

function rolesConfig(): ServiceConfig {
  const config = testConfig(3);
  const [ours, ...rest] = config.accounts;
  return {
    ...config,
    accounts: [
      {
        ...ours!,
        apiKeys: [
          ...ours!.apiKeys,
          { key: READ_KEY, name: 'viewer', role: 'read' },
          { keySha256: sha256(OPERATE_KEY), name: 'oncall', role: 'operate' },
          { key: ADMIN_KEY, name: 'platform', role: 'admin' },
        ],
      },
      ...rest,
    ],
  };
}

let svc: TestService;
let channelId: number;
beforeAll(async () => {
  svc = await startTestService({ config: rolesConfig() });
  const created = await call('admin', 'POST', '/v1/alert-channels', {
    type: 'WEBHOOK',
    name: 'pager hook',
    config: {
      url: 'http://127.0.0.1:9/hooks/T000/secret-path?token=abc',
      method: 'POST',
      headers: [{ key: 'X-Token', value: 'hdr-secret-123' }],
      queryParameters: [{ key: 'sig', value: 'qp-secret-456' }],
    },
  });
  expect(created.status).toBe(201);
  channelId = (created.body as { id: number }).id;
});
afterAll(() => svc?.close());

const headersOf = (role: Role) => ({
  authorization: `Bearer ${KEYS[role].key}`,
  'x-service-account': TEST_ACCOUNT,
});

async function call(role: Role, method: string, path: string, body?: unknown) {
  const res = await fetch(svc.url + path, {
    method,
    headers: { ...headersOf(role), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  // GET /metrics answers Prometheus's text format, every other route JSON.
  const json = res.headers.get('content-type')?.includes('json');
  return { status: res.status, body: text ? (json ? (JSON.parse(text) as unknown) : text) : undefined };
}

/** A URL of the route with its parameters filled in, and a body a route accepts. */
function request(route: string): { path: string; body?: unknown } {
  const [method, url] = route.split(' ') as [string, string];
  const path = url
    .replace(':checkId', 'c1')
    .replace(':resultId', 'no-such-result')
    .replace(':checkType', 'api')
    .replace(':alertId', 'no-such-alert')
    .replace(':id', String(channelId));
  if (route === 'POST /v1/alert-channels')
    return { path, body: { type: 'EMAIL', name: 'probe', config: { address: 'a@b.co' } } };
  if (route === 'PUT /v1/alert-channels/:id/subscriptions')
    return { path, body: { checks: ['c1'], groups: [] } };
  if (route === 'PUT /v1/alert-channels/:id/grouping') return { path, body: { groupWindowSeconds: 60 } };
  return method === 'GET' ? { path } : { path, body: {} };
}

describe.each(Object.entries(ROUTE_ROLES))('%s (needs %s)', (route, needs) => {
  it.each(ROLES)('a %s key', async (role) => {
    const method = route.split(' ')[0]!;
    const { path, body } = request(route);
    const res = await call(role, method, path, body);
    if (roleAllows(role, needs)) {
      // Allowed: whatever the route answers (a 404 of an unknown alert or screenshot), never the role's 403.
      expect(res.status).not.toBe(403);
      expect(res.status).toBeLessThan(500);
    } else {
      expect(res.status).toBe(403);
      const error = ApiErrorBodySchema.parse(res.body);
      expect(error.requiredRole).toBe(needs);
      expect(error.message).toContain(`needs the ${needs} role`);
    }
  });
});

describe('GET /v1/me', () => {
  it.each(ROLES)('names a %s key and its account', async (role) => {
    const res = await call(role, 'GET', '/v1/me');
    expect(res.status).toBe(200);
    expect(MeSchema.parse(res.body)).toEqual({ accountId: TEST_ACCOUNT, keyName: KEYS[role].name, role });
  });

  it('names a plain-string key key- and 8 hex digits of its SHA-256, as admin', async () => {
    const res = await fetch(`${svc.url}/v1/me`, {
      headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
    });
    const me = MeSchema.parse(await res.json());
    expect(me).toEqual({
      accountId: TEST_ACCOUNT,
      keyName: `key-${sha256(TEST_KEY).slice(0, 8)}`,
      role: 'admin',
    });
    expect(plainKeyName(TEST_KEY)).toBe(me.keyName);
    expect(me.keyName).not.toContain(TEST_KEY.slice(0, 8));
  });
});

describe('GET /v1/alert-channels', () => {
  it('masks URL paths and queries, header and parameter values for a read key, and says so', async () => {
    const res = await call('read', 'GET', '/v1/alert-channels');
    const list = AlertChannelListSchema.parse(res.body);
    expect(list.meta['masked']).toBe(true);
    const text = JSON.stringify(list.data);
    for (const secret of ['secret-path', 'token=abc', 'hdr-secret-123', 'qp-secret-456'])
      expect(text).not.toContain(secret);
    const hook = list.data.find((c) => c.id === channelId)!;
    expect(hook.config).toMatchObject({
      url: 'http://127.0.0.1:9/•••',
      headers: [{ key: 'X-Token', value: '•••' }],
      queryParameters: [{ key: 'sig', value: '•••' }],
    });
  });

  it.each(['operate', 'admin'] as const)('shows them as stored to an %s key', async (role) => {
    const list = AlertChannelListSchema.parse((await call(role, 'GET', '/v1/alert-channels')).body);
    expect(list.meta['masked']).toBeUndefined();
    const hook = list.data.find((c) => c.id === channelId)!;
    expect(hook.config).toMatchObject({
      url: 'http://127.0.0.1:9/hooks/T000/secret-path?token=abc',
      headers: [{ key: 'X-Token', value: 'hdr-secret-123' }],
      queryParameters: [{ key: 'sig', value: 'qp-secret-456' }],
    });
  });
});

describe('audit events', () => {
  it('records acknowledge, channel create and test under the key name, newest first, filtered and paged', async () => {
    const at = Date.now() - 60_000;
    await svc.storage.applyAlertChange(TEST_ACCOUNT, {
      checkId: 'c2',
      at,
      openAlert: openAlertRow('alert-roles-1', 'c2', at),
      notifications: [],
    });
    // A channel of this test's own: the route walk above acts on the first one.
    const created = await call('admin', 'POST', '/v1/alert-channels', {
      type: 'EMAIL',
      name: 'audit probe',
      config: { address: 'ops@example.com' },
    });
    const probe = String((created.body as { id: number }).id);
    const ack = await call('operate', 'POST', '/v1/check-alerts/alert-roles-1/acknowledge');
    expect(ack.status).toBe(200);
    const tested = await call('admin', 'POST', `/v1/alert-channels/${probe}/test`);
    expect(tested.status).toBe(200);

    const all = AuditEventListSchema.parse((await call('read', 'GET', '/v1/audit-events?limit=100')).body);
    const mine = all.data.filter((e) => e.targetId === 'alert-roles-1' || e.targetId === probe);
    // Newest first.
    expect(mine.map((e) => [e.action, e.keyName])).toEqual([
      ['channel.test', 'platform'],
      ['acknowledge', 'oncall'],
      ['channel.create', 'platform'],
    ]);
    expect(mine[1]).toMatchObject({
      checkId: 'c2',
      targetId: 'alert-roles-1',
      details: { alreadyAcknowledged: false },
    });
    expect(mine[2]!.details).toEqual({ type: 'EMAIL', name: 'audit probe' });
    expect(mine[0]!.details).toMatchObject({ notificationId: expect.any(String) });
    expect(all.data.every((e) => !Number.isNaN(Date.parse(e.at)))).toBe(true);
    expect(JSON.stringify(all)).not.toContain('secret');

    const acks = AuditEventListSchema.parse(
      (await call('read', 'GET', '/v1/audit-events?action=acknowledge')).body,
    );
    expect(acks.data.map((e) => e.targetId)).toEqual(['alert-roles-1']);
    const ofCheck = AuditEventListSchema.parse(
      (await call('read', 'GET', '/v1/audit-events?checkId=c2')).body,
    );
    expect(ofCheck.data.map((e) => e.action)).toEqual(['acknowledge']);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const none = AuditEventListSchema.parse(
      (await call('read', 'GET', `/v1/audit-events?from=${future}`)).body,
    );
    expect(none.data).toEqual([]);
    // A from after its to matches nothing, which reads as "nothing happened": refused as on the other lists.
    const reversed = await call('read', 'GET', `/v1/audit-events?from=${future}&to=2026-01-01T00:00:00Z`);
    expect(reversed.status).toBe(400);
    expect(ApiErrorBodySchema.parse(reversed.body).message).toBe(
      'invalid query: from: from must not be after to',
    );
    const paged = AuditEventListSchema.parse(
      (await call('read', 'GET', '/v1/audit-events?limit=1&page=2')).body,
    );
    expect(paged.meta).toMatchObject({ currentPage: 2, limit: 1, totalItems: all.meta.totalItems });
    expect(paged.data).toEqual([all.data[1]]);
  });

  it('refuses a bad filter with the error body', async () => {
    const res = await call('read', 'GET', '/v1/audit-events?action=explode');
    expect(res.status).toBe(400);
    expect(ApiErrorBodySchema.parse(res.body).details?.[0]?.path).toBe('action');
  });

  it('answers an unchanged list 304 to its ETag', async () => {
    const first = await fetch(`${svc.url}/v1/audit-events`, { headers: headersOf('read') });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await fetch(`${svc.url}/v1/audit-events`, {
      headers: { ...headersOf('read'), 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });
});

describe('the route-role table', () => {
  it('is required of every account route: one without a role stops the start', async () => {
    const app = Fastify();
    const http = HttpConfigSchema.parse({});
    registerGuards(app, {
      accounts: createAccounts(testConfig(1), new Date()),
      limits: await createStrangerLimits(app, () => http.rateLimit, systemClock),
      limitRate: () => undefined,
      settings: () => http,
      now: Date.now,
    });
    expect(() => app.post('/v1/forgotten', () => ({}))).toThrow(
      'POST /v1/forgotten has no role in src/server/http/route-roles.ts',
    );
    // Routes that take no account key need none.
    expect(() => app.get('/v1/public/anything', () => ({}))).not.toThrow();
    await app.close();
  });
});

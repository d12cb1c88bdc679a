// POST /v1/alert-channels: per-type validation, 201, 402 at the plan limit
// (also under concurrent POSTs), malformed and oversized bodies; a channel's
// grouping window read and changed (GET/PUT .../grouping).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AlertChannelListSchema,
  AlertChannelSchema,
  ApiErrorBodySchema,
  AuditEventListSchema,
  ChannelGroupingSchema,
} from '../../../src/api/schemas/index.js';
import { call } from '../../helpers/http.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

const headers = {
  authorization: `Bearer ${TEST_KEY}`,
  'x-service-account': TEST_ACCOUNT,
  'content-type': 'application/json',
};
let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

const post = (s: TestService, body: unknown, raw?: string) =>
  call(s, 'POST', '/v1/alert-channels', raw ?? body);

const VALID = [
  { type: 'EMAIL', name: 'mail', config: { address: 'ops@example.com' } },
  { type: 'CHAT', name: 'chat', config: { url: 'https://chat.example.com/hook/x', channel: '#ops' } },
  {
    type: 'WEBHOOK',
    name: 'hook',
    config: {
      url: 'https://example.com/h',
      method: 'PUT',
      headers: [{ key: 'X-A', value: '1' }],
      queryParameters: [{ key: 'q', value: '2' }],
    },
  },
  { type: 'SMS', name: 'sms', config: { number: '+4915112345678', name: 'Pager' } },
  { type: 'PHONE', name: 'phone', config: { number: '+14155550123', name: 'Call' } },
];

describe('POST /v1/alert-channels', () => {
  it('creates a channel of every type with 201, an integer id and createdAt equal to updatedAt', async () => {
    svc = await startTestService();
    for (const body of VALID) {
      const { status, body: created } = await post(svc, body);
      expect(status).toBe(201);
      const channel = AlertChannelSchema.parse(created);
      expect(channel).toMatchObject({ type: body.type, name: body.name, config: body.config });
      expect(Number.isInteger(channel.id)).toBe(true);
      expect(channel.createdAt).toBe(channel.updatedAt);
    }
    const res = await fetch(`${svc.url}/v1/alert-channels?limit=100`, { headers });
    expect(AlertChannelListSchema.parse(await res.json()).data.map((c) => c.type)).toEqual(
      VALID.map((v) => v.type),
    );
  });

  it.each([
    [{ type: 'EMAIL', name: 'm', config: { address: 'nope' } }, 'config.address'],
    [{ type: 'SMS', name: 's', config: { number: '015112345678', name: 'x' } }, 'config.number'],
    [{ type: 'PHONE', name: 'p', config: { number: '+14155550123' } }, 'config.name'],
    [{ type: 'CHAT', name: 'c', config: { url: 'https://x.example.com', channel: 'ops' } }, 'config.channel'],
    [
      { type: 'WEBHOOK', name: 'w', config: { url: 'https://x.example.com', method: 'TRACE' } },
      'config.method',
    ],
    [{ type: 'FAX', name: 'f', config: {} }, 'type'],
    [{ type: 'EMAIL', config: { address: 'ops@example.com' } }, 'name'],
  ])('rejects %j with 400 naming %s', async (body, path) => {
    svc = await startTestService();
    const res = await post(svc, body);
    expect(res.status).toBe(400);
    expect(ApiErrorBodySchema.parse(res.body).details?.map((d) => d.path)).toContain(path);
  });

  it('refuses a key it does not know with 400 naming it, and creates nothing', async () => {
    svc = await startTestService();
    const typos = [
      [{ ...VALID[0], nmae: 'x' }, 'nmae'],
      [{ ...VALID[1], config: { url: 'https://chat.example.com/hook/x', chanel: '#ops' } }, 'config.chanel'],
      [
        {
          type: 'WEBHOOK',
          name: 'pager',
          config: { url: 'https://x.example.com', method: 'POST', format: 'pagerduty', routingkey: 'k' },
        },
        'config.routingkey',
      ],
    ] as const;
    for (const [body, path] of typos) {
      const res = await post(svc, body);
      expect(res.status).toBe(400);
      expect(ApiErrorBodySchema.parse(res.body).details).toContainEqual({
        path,
        message: `unknown key "${path.split('.').at(-1)}"`,
      });
    }
    const res = await fetch(`${svc.url}/v1/alert-channels`, { headers });
    expect(AlertChannelListSchema.parse(await res.json()).data).toEqual([]);
  });

  it('says a missing field is required, naming it', async () => {
    svc = await startTestService();
    const res = await post(svc, { type: 'EMAIL' });
    expect(res.status).toBe(400);
    expect(ApiErrorBodySchema.parse(res.body).details).toEqual([
      { path: 'name', message: 'is required (string)' },
      { path: 'config', message: 'is required (object)' },
    ]);
  });

  it('refuses a header no HTTP request can carry, naming it, and creates nothing', async () => {
    svc = await startTestService();
    const NAME = "must be an HTTP header name: letters, digits and !#$%&'*+-.^_`|~, no spaces or colons";
    const VALUE =
      'must hold only tabs, printable ASCII and Latin-1 characters (no emoji, no control characters)';
    const cases = [
      ['X Token', 'v', 'key', NAME],
      ['X-Token:', 'v', 'key', NAME],
      ['X-Tökén', 'v', 'key', NAME],
      ['X-A', 'a\u0000b', 'value', VALUE],
      ['X-A', 'on 😀', 'value', VALUE],
    ] as const;
    for (const [key, value, field, message] of cases) {
      const res = await post(svc, {
        ...VALID[2],
        config: { ...VALID[2]!.config, headers: [{ key, value }] },
      });
      expect(res.status, key + value).toBe(400);
      expect(ApiErrorBodySchema.parse(res.body).details).toEqual([
        { path: `config.headers[0].${field}`, message },
      ]);
    }
    // A Latin-1 value is one undici sends.
    const latin = await post(svc, {
      ...VALID[2],
      config: { ...VALID[2]!.config, headers: [{ key: 'X-A', value: 'ünï' }] },
    });
    expect(latin.status).toBe(201);
    const res = await fetch(`${svc.url}/v1/alert-channels`, { headers });
    expect(AlertChannelListSchema.parse(await res.json()).data).toHaveLength(1);
  });

  it('answers malformed JSON with 400, a body over the limit with 413, and a non-JSON body with 415', async () => {
    svc = await startTestService();
    expect((await post(svc, undefined, '{"type": "EMAIL",')).status).toBe(400);
    const huge = JSON.stringify({ type: 'EMAIL', name: 'x'.repeat(100_000), config: { address: 'a@b.co' } });
    const big = await post(svc, undefined, huge);
    expect(big.status).toBe(413);
    expect(ApiErrorBodySchema.parse(big.body).statusCode).toBe(413);
    const text = await fetch(`${svc.url}/v1/alert-channels`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(text.status).toBe(415);
    // A compressed body is refused for its coding, not as JSON that is not valid.
    const gzipped = await fetch(`${svc.url}/v1/alert-channels`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(VALID[0])),
    });
    expect(gzipped.status).toBe(415);
    expect(ApiErrorBodySchema.parse(await gzipped.json()).message).toBe(
      'the body is sent with Content-Encoding: gzip: send it uncompressed',
    );
  });

  it('answers 402 beyond the plan limit, and concurrent POSTs create exactly the limit', async () => {
    svc = await startTestService({ maxAlertChannels: 5 });
    const s = svc;
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(s, { ...VALID[0], name: `mail ${i}` })),
    );
    expect(outcomes.filter((o) => o.status === 201)).toHaveLength(5);
    const refused = outcomes.filter((o) => o.status === 402);
    expect(refused).toHaveLength(15);
    expect(ApiErrorBodySchema.parse(refused[0]!.body).message).toContain('5');
  });
});

describe('a channel’s grouping window', () => {
  it('is read, changed and given back to its type’s default, the channel kept; bad input is a 400 that changes nothing', async () => {
    svc = await startTestService();
    const made = AlertChannelSchema.parse((await post(svc, VALID[1])).body);
    const path = `/v1/alert-channels/${made.id}/grouping`;
    expect(ChannelGroupingSchema.parse((await call(svc, 'GET', path)).body)).toEqual({
      groupWindowSeconds: null,
      effectiveSeconds: 30,
    });

    const set = await call(svc, 'PUT', path, { groupWindowSeconds: 120 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ groupWindowSeconds: 120, effectiveSeconds: 120 });
    const listed = async () =>
      AlertChannelListSchema.parse((await call(svc!, 'GET', '/v1/alert-channels')).body).data;
    expect(await listed()).toEqual([expect.objectContaining({ id: made.id, groupWindowSeconds: 120 })]);

    for (const bad of [
      { groupWindowSeconds: 3601 },
      { groupWindowSeconds: 1.5 },
      {},
      { groupWindowSeconds: 5, x: 1 },
    ]) {
      const refused = await call(svc, 'PUT', path, bad);
      expect(refused.status).toBe(400);
      expect(ApiErrorBodySchema.parse(refused.body).message).toMatch(/grouping/);
    }
    expect((await call(svc, 'GET', path)).body).toEqual({ groupWindowSeconds: 120, effectiveSeconds: 120 });

    expect((await call(svc, 'PUT', path, { groupWindowSeconds: null })).body).toEqual({
      groupWindowSeconds: null,
      effectiveSeconds: 30,
    });
    expect((await listed())[0]).not.toHaveProperty('groupWindowSeconds');
    expect(
      (await call(svc, 'PUT', '/v1/alert-channels/999/grouping', { groupWindowSeconds: 5 })).status,
    ).toBe(404);

    const audit = AuditEventListSchema.parse(
      (await call(svc, 'GET', '/v1/audit-events?action=channel.grouping')).body,
    ).data;
    expect(audit.map((e) => [e.targetId, e.details])).toEqual([
      [String(made.id), { groupWindowSeconds: null }],
      [String(made.id), { groupWindowSeconds: 120 }],
    ]);
  });
});

describe('storage survives a restart', () => {
  it('keeps results and channels in the database file', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-')), 'restart.db');
    const first = await startTestService({ dbPath });
    await first.seed('c1', ['success', 'failed']);
    await post(first, VALID[0]);
    await first.close();
    svc = await startTestService({ dbPath });
    const results = await fetch(`${svc.url}/v1/check-results/c1`, { headers });
    expect(((await results.json()) as { meta: { totalItems: number } }).meta.totalItems).toBe(2);
    const channels = await fetch(`${svc.url}/v1/alert-channels`, { headers });
    expect(AlertChannelListSchema.parse(await channels.json()).data).toHaveLength(1);
  });
});

// Maintenance windows over the API (issue 33): created, listed, read, changed and
// ended through real HTTP; bad input answered 400 naming the field; a window from
// the config refused to writes (409); a read key may list but not create.
import { afterEach, describe, expect, it } from 'vitest';
import {
  MaintenanceWindowListSchema,
  MaintenanceWindowSchema,
} from '../../../src/api/schemas/maintenance.js';
import { ApiErrorBodySchema } from '../../../src/api/schemas/index.js';
import { AuditEventListSchema } from '../../../src/api/schemas/actions.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import {
  startTestService,
  testConfig,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestService,
} from '../../helpers/service.js';

const AUTH = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };
const READ_KEY = 'cw_read_0123456789abcdef';

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH) {
  const res = await fetch(`${svc!.url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

function configWith(extra: Record<string, unknown> = {}) {
  const base = testConfig(3) as unknown as { accounts: Array<Record<string, unknown>> };
  const [ours, ...rest] = base.accounts;
  return ServiceConfigSchema.parse({
    ...base,
    accounts: [
      {
        ...ours,
        apiKeys: [TEST_KEY, { key: READ_KEY, name: 'viewer', role: 'read' }],
        ...extra,
      },
      ...rest,
    ],
  });
}

const silence = { name: 'deploy 4.2', reason: 'rolling deploy', scope: { checks: ['c1'] }, duration: '30m' };

describe('maintenance windows over the API', () => {
  it('creates a window (201), lists, reads, extends and ends it, each in the audit trail', async () => {
    svc = await startTestService({ config: configWith() });
    const created = await call('POST', '/v1/maintenance-windows', silence);
    expect(created.status).toBe(201);
    const w = MaintenanceWindowSchema.parse(created.body);
    expect(w).toMatchObject({
      name: 'deploy 4.2',
      reason: 'rolling deploy',
      createdBy: 'key-' + w.createdBy.slice(4),
      scope: { checks: ['c1'] },
      repeat: null,
      mode: 'silence',
      excludeFromAvailability: false,
      state: 'active',
      source: 'api',
      endedEarlyAt: null,
    });
    expect(Date.parse(w.endsAt) - Date.parse(w.startsAt)).toBe(30 * 60_000);

    const list = MaintenanceWindowListSchema.parse(
      (await call('GET', '/v1/maintenance-windows?state=active')).body,
    );
    expect(list.data.map((x) => x.id)).toEqual([w.id]);
    expect(list.meta).toMatchObject({ totalItems: 1, currentPage: 1 });
    const byCheck = MaintenanceWindowListSchema.parse(
      (await call('GET', '/v1/maintenance-windows?checkId=c2')).body,
    );
    expect(byCheck.data).toEqual([]);
    expect((await call('GET', `/v1/maintenance-windows/${w.id}`)).body).toMatchObject({ id: w.id });

    const later = new Date(Date.parse(w.endsAt) + 3_600_000).toISOString();
    const extended = await call('PATCH', `/v1/maintenance-windows/${w.id}`, { endsAt: later });
    expect(extended.status).toBe(200);
    expect(extended.body).toMatchObject({ endsAt: later, state: 'active' });

    const ended = await call('PATCH', `/v1/maintenance-windows/${w.id}`, { endsAt: 'now' });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ state: 'ended' });
    expect(ended.body['endedEarlyAt']).not.toBeNull();
    // Ended, not erased: still listed as ended.
    const endedList = MaintenanceWindowListSchema.parse(
      (await call('GET', '/v1/maintenance-windows?state=ended')).body,
    );
    expect(endedList.data.map((x) => x.id)).toEqual([w.id]);

    const audit = AuditEventListSchema.parse((await call('GET', '/v1/audit-events?limit=100')).body);
    expect(audit.data.map((e) => e.action).sort()).toEqual([
      'maintenance.create',
      'maintenance.end',
      'maintenance.update',
    ]);
  });

  it('cancels a scheduled window (204, gone) and ends an active one on DELETE (kept as ended)', async () => {
    svc = await startTestService({ config: configWith() });
    const startsAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = MaintenanceWindowSchema.parse(
      (await call('POST', '/v1/maintenance-windows', { ...silence, startsAt })).body,
    );
    expect(scheduled.state).toBe('scheduled');
    expect((await call('DELETE', `/v1/maintenance-windows/${scheduled.id}`)).status).toBe(204);
    expect((await call('GET', `/v1/maintenance-windows/${scheduled.id}`)).status).toBe(404);

    const active = MaintenanceWindowSchema.parse(
      (await call('POST', '/v1/maintenance-windows', silence)).body,
    );
    const gone = await call('DELETE', `/v1/maintenance-windows/${active.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ id: active.id, state: 'ended' });
    expect((await call('GET', `/v1/maintenance-windows/${active.id}`)).body).toMatchObject({
      state: 'ended',
    });
    const audit = AuditEventListSchema.parse((await call('GET', '/v1/audit-events?limit=100')).body);
    expect(audit.data.map((e) => e.action).sort()).toEqual([
      'maintenance.cancel',
      'maintenance.create',
      'maintenance.create',
      'maintenance.end',
    ]);
  });

  it('answers bad input 400 naming the field', async () => {
    svc = await startTestService({ config: configWith() });
    const now = Date.now();
    const cases: Array<[unknown, string, RegExp]> = [
      [
        {
          ...silence,
          duration: undefined,
          startsAt: new Date(now).toISOString(),
          endsAt: new Date(now - 60_000).toISOString(),
        },
        'endsAt',
        /ends .* before it starts/,
      ],
      [
        { ...silence, scope: { checks: ['c1', 'nope'], groups: ['ghost'] } },
        'scope.checks[1]',
        /unknown checks "nope"/,
      ],
      [{ ...silence, duration: '8d' }, 'duration', /at most 7 days/],
      [
        { ...silence, duration: '1h', repeat: { frequency: 'daily', timezone: 'Mars/Olympus_Mons' } },
        'repeat.timezone',
        /unknown time zone "Mars\/Olympus_Mons"/,
      ],
      [
        { ...silence, duration: '25h', repeat: { frequency: 'daily', timezone: 'Europe/Berlin' } },
        'duration',
        /24 hours/,
      ],
      [{ ...silence, duration: undefined }, 'endsAt', /must end/],
      [{ ...silence, scope: {} }, 'scope', /at least one/],
      [{ ...silence, startsAt: '2026-12-01' }, 'startsAt', /startsAt: must be an ISO 8601 timestamp with/],
    ];
    for (const [body, path, message] of cases) {
      const res = await call('POST', '/v1/maintenance-windows', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = ApiErrorBodySchema.parse(res.body);
      expect(
        error.details?.map((d) => d.path),
        JSON.stringify(error),
      ).toContain(path);
      expect(error.message).toMatch(message);
    }
    // Both unknown ids are named in the one message.
    const both = ApiErrorBodySchema.parse(
      (
        await call('POST', '/v1/maintenance-windows', {
          ...silence,
          scope: { checks: ['nope'], groups: ['ghost'] },
        })
      ).body,
    );
    expect(both.message).toMatch(/checks "nope".*groups "ghost"/);
    // A change's endsAt says both forms it takes.
    const { id } = (await call('POST', '/v1/maintenance-windows', silence)).body as { id: string };
    for (const endsAt of ['NOW', null]) {
      const patch = await call('PATCH', `/v1/maintenance-windows/${id}`, { endsAt });
      expect(patch.status).toBe(400);
      expect(ApiErrorBodySchema.parse(patch.body).message).toBe(
        'invalid body: endsAt: must be "now" or an ISO 8601 timestamp with a time zone, e.g. 2026-11-30T08:00:00Z',
      );
    }
  });

  it('refuses writes to a window from the config with a 409 naming the config file', async () => {
    svc = await startTestService({
      config: configWith({
        maintenanceWindows: [
          {
            id: 'nightly',
            name: 'nightly backup',
            reason: 'database backup',
            scope: { groups: ['core'] },
            startsAt: '2026-01-05T02:00:00+01:00',
            duration: '1h',
            repeat: { frequency: 'daily', timezone: 'Europe/Berlin' },
          },
        ],
      }),
    });
    const w = MaintenanceWindowSchema.parse((await call('GET', '/v1/maintenance-windows/nightly')).body);
    expect(w).toMatchObject({ id: 'nightly', source: 'config', createdBy: 'config' });
    expect(w.occurrence).not.toBeNull();
    for (const [method, body] of [
      ['PATCH', { endsAt: 'now' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, '/v1/maintenance-windows/nightly', body);
      expect(res.status).toBe(409);
      expect(ApiErrorBodySchema.parse(res.body).message).toMatch(
        /config file \(accounts\[\]\.maintenanceWindows\)/,
      );
    }
  });

  it('keeps a daily 02:00 Europe/Berlin window at 02:00 local across the 2027 changes, read at those instants', async () => {
    let now = Date.parse('2027-03-27T12:00:00Z');
    svc = await startTestService({
      now: () => now,
      config: configWith({
        maintenanceWindows: [
          {
            id: 'nightly',
            name: 'nightly backup',
            reason: 'database backup',
            scope: { checks: ['c1'] },
            startsAt: '2027-01-04T02:00:00+01:00',
            duration: '1h',
            repeat: { frequency: 'daily', timezone: 'Europe/Berlin' },
          },
        ],
      }),
    });
    const read = async (at: string) => {
      now = Date.parse(at);
      const w = MaintenanceWindowSchema.parse((await call('GET', '/v1/maintenance-windows/nightly')).body);
      return [w.state, w.occurrence?.startsAt, w.occurrence?.endsAt];
    };
    // Saturday 02:00 CET; Sunday 02:00 does not exist: 03:00 CEST, the same instant; Monday 02:00 CEST.
    expect(await read('2027-03-27T12:00:00Z')).toEqual([
      'scheduled',
      '2027-03-28T01:00:00.000Z',
      '2027-03-28T02:00:00.000Z',
    ]);
    expect(await read('2027-03-28T01:30:00Z')).toEqual([
      'active',
      '2027-03-28T01:00:00.000Z',
      '2027-03-28T02:00:00.000Z',
    ]);
    expect(await read('2027-03-28T02:00:00Z')).toEqual([
      'scheduled',
      '2027-03-29T00:00:00.000Z',
      '2027-03-29T01:00:00.000Z',
    ]);
    // October: 02:00 is shown twice on Sunday 31st: the first (CEST); Monday 02:00 CET.
    expect(await read('2027-10-30T12:00:00Z')).toEqual([
      'scheduled',
      '2027-10-31T00:00:00.000Z',
      '2027-10-31T01:00:00.000Z',
    ]);
    expect(await read('2027-10-31T00:59:00Z')).toEqual([
      'active',
      '2027-10-31T00:00:00.000Z',
      '2027-10-31T01:00:00.000Z',
    ]);
    expect(await read('2027-10-31T01:30:00Z')).toEqual([
      'scheduled',
      '2027-11-01T01:00:00.000Z',
      '2027-11-01T02:00:00.000Z',
    ]);
  });

  it('lets a read key list windows but not create one (403)', async () => {
    svc = await startTestService({ config: configWith() });
    const read = { authorization: `Bearer ${READ_KEY}`, 'x-service-account': TEST_ACCOUNT };
    expect((await call('GET', '/v1/maintenance-windows', undefined, read)).status).toBe(200);
    const refused = await call('POST', '/v1/maintenance-windows', silence, read);
    expect(refused.status).toBe(403);
    expect(ApiErrorBodySchema.parse(refused.body).requiredRole).toBe('operate');
  });
});

// Deploy scripts that cannot pass by mistake (docs/maintenance.md): a window over no
// check is refused unless meant (`allowEmpty`, `--allow-empty`), and leaves nothing
// behind; ending a window that had ended is a 409 a script reads by `code`, and
// `checkwall maintenance end` exits 0 on it saying when; windows carry the checks
// they cover now. The command runs in-process against the real service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBodySchema } from '../../../src/api/schemas/index.js';
import {
  MaintenanceWindowListSchema,
  MaintenanceWindowSchema,
} from '../../../src/api/schemas/maintenance.js';
import { runMaintenance } from '../../../src/commands/maintenance.js';
import { systemClock } from '../../../src/domain/clock.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { call, get, patch, post } from '../../helpers/http.js';
import {
  OTHER_ACCOUNT,
  OTHER_KEY,
  startTestService,
  testConfig,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestService,
} from '../../helpers/service.js';

const OPS_KEY = 'cw_ops_0123456789abcdef0123';
let svc: TestService;
let now = Date.now();
const lines: string[] = [];

function config() {
  const base = testConfig(3);
  const [ours, ...rest] = base.accounts;
  const ghost = { name: 'ghost', reason: 'checks to come', scope: { tags: ['later'] }, duration: '1h' };
  return ServiceConfigSchema.parse({
    ...base,
    accounts: [
      { ...ours!, maintenanceWindows: [{ id: 'ghost', ...ghost }] },
      ...rest.map((a) => ({
        ...a,
        apiKeys: [...a.apiKeys, { key: OPS_KEY, name: 'deployer', role: 'operate' }],
        maxMaintenanceWindows: 2,
        maintenanceWindows: [{ id: 'weekly', ...ghost, scope: { checks: ['secret'] }, duration: '7d' }],
      })),
    ],
  });
}

beforeAll(async () => {
  svc = await startTestService({ config: config(), now: () => now, log: (line) => lines.push(line) });
});
afterAll(() => svc.close());

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMaintenance(argv, {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    stdoutIsTTY: false,
    env: { CHECKWALL_BASE_URL: svc.url, CHECKWALL_API_KEY: TEST_KEY, CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT },
    clock: systemClock,
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const windows = async () =>
  MaintenanceWindowListSchema.parse((await get(svc, '/v1/maintenance-windows?limit=100')).body).data;

describe('windows over nothing', () => {
  it('refuses a window that covers no check now, 400 on scope naming the tag; allowEmpty makes it', async () => {
    const body = { name: 'typo', reason: 'deploy', scope: { tags: ['prdo'] }, duration: '30m' };
    const refused = await post(svc, '/v1/maintenance-windows', body);
    expect(refused.status).toBe(400);
    expect(ApiErrorBodySchema.parse(refused.body).details).toEqual([
      { path: 'scope', message: 'no check has tag "prdo"' },
    ]);
    const made = await post(svc, '/v1/maintenance-windows', { ...body, allowEmpty: true });
    expect(made.status).toBe(201);
    expect(MaintenanceWindowSchema.parse(made.body).coveredChecks).toEqual([]);
    expect((await call(svc, 'DELETE', `/v1/maintenance-windows/${String(made.body['id'])}`)).status).toBe(
      200,
    );
  });

  it('says which checks a window covers now', async () => {
    const made = await post(svc, '/v1/maintenance-windows', {
      name: 'odd ones',
      reason: 'deploy',
      scope: { tags: ['odd'], checks: ['c3'] },
      duration: '30m',
    });
    expect(MaintenanceWindowSchema.parse(made.body).coveredChecks).toEqual(['c2', 'c3']);
    const listed = (await windows()).find((w) => w.id === made.body['id']);
    expect(listed?.coveredChecks).toEqual(['c2', 'c3']);
    const printed = await cli('list');
    expect(printed.stdout).toMatch(/COVERS/);
    expect(printed.stdout).toMatch(/c2,c3/);
    await patch(svc, `/v1/maintenance-windows/${String(made.body['id'])}`, { endsAt: 'now' });
  });

  it('keeps a config window over nothing, with a warning at load', async () => {
    expect((await windows()).find((w) => w.id === 'ghost')?.coveredChecks).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(/"ghost".*covers no check now: no check has tag "later"/),
    );
  });

  it('checkwall maintenance start over nothing exits 2 and leaves no window; --allow-empty makes it', async () => {
    const before = (await windows()).length;
    const refused = await cli('start', '--tag', 'prdo', '--for', '30m', '--reason', 'deploy 4.3');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no check has tag "prdo"/);
    expect((await windows()).length).toBe(before);
    const made = await cli(
      'start',
      '--tag',
      'prdo',
      '--for',
      '30m',
      '--reason',
      'deploy 4.3',
      '--allow-empty',
    );
    expect(made.code).toBe(0);
    expect((await windows()).length).toBe(before + 1);
  });
});

describe('ending a window that has ended', () => {
  it('is a 409 with code window_ended and endedAt; checkwall maintenance end exits 0 saying when', async () => {
    const made = await post(svc, '/v1/maintenance-windows', {
      name: 'short',
      reason: 'deploy',
      scope: { checks: ['c1'] },
      duration: '30m',
    });
    const id = String(made.body['id']);
    const endsAt = String(made.body['endsAt']);
    now += 3_600_000;
    const again = await patch(svc, `/v1/maintenance-windows/${id}`, { endsAt: 'now' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'window_ended', endedAt: endsAt });
    const ended = await cli('end', id);
    expect(ended).toEqual({ code: 0, stdout: `${id} had already ended at ${endsAt}\n`, stderr: '' });
    const unknown = await cli('end', 'no-such-window');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/404/);
  });
});

describe('what one key may store', () => {
  const as = (key: string) => ({ authorization: `Bearer ${key}`, 'x-service-account': OTHER_ACCOUNT });
  const body = { name: 'w', reason: 'r', scope: { checks: ['secret'] }, duration: '30m' };

  it("caps active and scheduled windows per account, the config's counted, ended ones not", async () => {
    const first = await post(svc, '/v1/maintenance-windows', body, as(OTHER_KEY));
    expect(first.status).toBe(201);
    const over = await post(svc, '/v1/maintenance-windows', body, as(OTHER_KEY));
    expect(over.status).toBe(409);
    expect(over.body['message']).toBe('too many maintenance windows (2): end or delete some');
    await patch(svc, `/v1/maintenance-windows/${String(first.body['id'])}`, { endsAt: 'now' }, as(OTHER_KEY));
    const again = await post(svc, '/v1/maintenance-windows', body, as(OTHER_KEY));
    expect(again.status).toBe(201);
    await patch(svc, `/v1/maintenance-windows/${String(again.body['id'])}`, { endsAt: 'now' }, as(OTHER_KEY));
  });

  it('bounds a scope: 100 tags of at most 64 characters, 1,000 check and group ids', async () => {
    const refused = async (scope: Record<string, string[]>) => {
      const answer = await post(svc, '/v1/maintenance-windows', { ...body, scope, allowEmpty: true });
      expect(answer.status).toBe(400);
      return ApiErrorBodySchema.parse(answer.body).details?.map((d) => d.path);
    };
    expect(await refused({ tags: Array.from({ length: 101 }, (_, i) => `t${i}`) })).toEqual(['scope.tags']);
    expect(await refused({ tags: ['x'.repeat(65)] })).toEqual(['scope.tags[0]']);
    const ids = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    expect(await refused({ checks: ids(600, 'c'), groups: ids(401, 'g') })).toEqual(['scope']);
  });

  it('erases an ended window on DELETE, for an admin key only, in the audit trail', async () => {
    const made = await post(svc, '/v1/maintenance-windows', body, as(OTHER_KEY));
    const path = `/v1/maintenance-windows/${String(made.body['id'])}`;
    await patch(svc, path, { endsAt: 'now' }, as(OTHER_KEY));
    expect((await call(svc, 'DELETE', path, undefined, as(OPS_KEY))).status).toBe(403);
    expect((await call(svc, 'DELETE', path, undefined, as(OTHER_KEY))).status).toBe(204);
    expect((await get(svc, path, as(OTHER_KEY))).status).toBe(404);
    const audit = await get(svc, '/v1/audit-events?limit=100', as(OTHER_KEY));
    expect(JSON.stringify(audit.body)).toContain('"maintenance.delete"');
  });
});

// A config reload in the real service, against a real loopback target: checks
// added, changed, disabled and removed take effect at once, stored results
// stay, and a run in flight when the config changes finishes and is stored.
import { afterEach, describe, expect, it } from 'vitest';
import {
  CheckResultListSchema,
  CheckStatusListSchema,
  type CheckResult,
} from '../../../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { startFixture, type Fixture } from '../../helpers/fixture.js';
import { accountConfig } from '../../helpers/configs.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

interface Check {
  id: string;
  name?: string;
  ms?: number;
  enabled?: boolean;
  v?: number;
}

let svc: TestService | undefined;
let target: Fixture | undefined;
afterEach(async () => {
  await svc?.close();
  await target?.close();
  svc = target = undefined;
});

/** A target that answers /c/{check}?ms=N&v=V after N ms. */
const startTarget = () =>
  startFixture((req, res) => {
    const ms = Number(new URL(req.url, 'http://x').searchParams.get('ms') ?? 0);
    setTimeout(() => res.writeHead(200).end('ok'), ms);
  });

function config(fixture: Fixture, checks: Check[]) {
  return accountConfig({
    locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
    checks: checks.map((c) => ({
      id: c.id,
      name: c.name ?? c.id,
      target: `${fixture.url}/c/${c.id}?ms=${c.ms ?? 0}&v=${c.v ?? 1}`,
      frequency: '1s',
      enabled: c.enabled ?? true,
    })),
  });
}

const hits = (f: Fixture, id: string, v?: number) =>
  f.seen.filter((r) => r.url.startsWith(`/c/${id}?`) && (v === undefined || r.url.endsWith(`&v=${v}`)));

const headers = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

async function results(s: TestService, id: string) {
  const res = await fetch(`${s.url}/v1/check-results/${id}?period=1h&limit=100`, { headers });
  return res.status === 404 ? null : CheckResultListSchema.parse(await res.json()).data;
}

async function statuses(s: TestService) {
  const res = await fetch(`${s.url}/v1/check-statuses?sortBy=name&limit=100`, { headers });
  return CheckStatusListSchema.parse(await res.json()).data;
}

describe('config reload', () => {
  it('adds, changes, disables and removes checks at once, keeping stored results and finishing runs in flight', async () => {
    const f = (target = await startTarget());
    const s = (svc = await startTestService({
      startScheduler: true,
      config: config(f, [
        { id: 'keep' },
        { id: 'change' },
        { id: 'off' },
        { id: 'gone' },
        { id: 'slow', ms: 1500 },
      ]),
    }));
    for (const id of ['keep', 'change', 'off', 'gone'])
      await expect
        .poll(async () => (await results(s, id))?.length ?? 0, { timeout: 10_000 })
        .toBeGreaterThan(0);
    // Reload while a run of "slow" is in flight (the target holds it 1.5 s).
    await expect.poll(() => hits(f, 'slow').length, { timeout: 10_000 }).toBeGreaterThan(0);
    const slowSent = hits(f, 'slow').length;
    const stored = { off: (await results(s, 'off'))!.length, gone: (await results(s, 'gone'))!.length };

    const summary = await s.reload(
      config(f, [
        { id: 'keep' },
        { id: 'change', name: 'Changed', v: 2 },
        { id: 'off', enabled: false },
        { id: 'slow', ms: 1500, v: 2 },
        { id: 'new' },
      ]),
    );
    expect(summary).toEqual({ added: 1, changed: 3, removed: 1, waiting: [] });
    const reloadedAt = Date.now();
    const startedBefore = (list: CheckResult[] | null) =>
      (list ?? []).every((r) => Date.parse(r.startedAt) <= reloadedAt);

    // Added: it runs. Changed: its next runs use the new target, and its status the new name.
    await expect
      .poll(async () => (await results(s, 'new'))?.length ?? 0, { timeout: 10_000 })
      .toBeGreaterThan(0);
    await expect.poll(() => hits(f, 'change', 2).length, { timeout: 10_000 }).toBeGreaterThan(1);
    const byId = new Map((await statuses(s)).map((x) => [x.checkId, x]));
    expect(byId.get('change')!.checkName).toBe('Changed');
    expect(byId.get('off')!.schedule).toEqual({ frequency: '1s', nextRun: null, enabled: false });
    expect(byId.has('gone')).toBe(false);
    // The run of "slow" in flight at the reload finished and was stored.
    await expect
      .poll(async () => (await results(s, 'slow'))!.filter((r) => r.request.url.endsWith('v=1')).length, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(slowSent);
    // Disabled and removed checks start no run after the reload: each of their runs stored
    // started before it (one started before it may land at the target, and be stored, after).
    // Stored results stay: the disabled check's, and the removed check's once it is back.
    const off = await results(s, 'off');
    expect(off!.length).toBeGreaterThanOrEqual(stored.off);
    expect(startedBefore(off)).toBe(true);
    expect(await results(s, 'gone')).toBeNull(); // not in the config, so not in the API
    await s.reload(config(f, [{ id: 'gone', enabled: false }]));
    const gone = await results(s, 'gone');
    expect(gone!.length).toBeGreaterThanOrEqual(stored.gone);
    expect(startedBefore(gone)).toBe(true);
    // Every request the target saw of them is a stored run: none started unrecorded.
    expect(hits(f, 'off').length).toBe(off!.length);
    expect(hits(f, 'gone').length).toBe(gone!.length);
    // Through it all, every due run was stored, skipped ("slow" outlasts its period) or is under way.
    const stats = s.runStats();
    expect(stats.due).toBe(stats.stored + stats.skipped + stats.queued + stats.running);
  });

  it('reads again only the statuses of the checks a reload moved, and all of an account whose locations moved', async () => {
    const f = (target = await startTarget());
    const ids = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, enabled: false }));
    const s = (svc = await startTestService({ config: config(f, ids) }));
    // Which checks' statuses are read from storage: each read asks for the check's open incident.
    const read: string[] = [];
    const currentIncident = s.storage.currentIncident.bind(s.storage);
    s.storage.currentIncident = (accountId, checkId) => {
      read.push(checkId);
      return currentIncident(accountId, checkId);
    };
    expect((await statuses(s)).length).toBe(12);
    expect(new Set(read).size).toBe(12);

    read.length = 0;
    const renamed = ids.map((c) => (c.id === 'c3' ? { ...c, name: 'Renamed' } : c));
    expect(await s.reload(config(f, [...renamed, { id: 'c12', enabled: false }]))).toEqual({
      added: 1,
      changed: 1,
      removed: 0,
      waiting: [],
    });
    const after = await statuses(s);
    expect(after.map((x) => x.checkName)).toContain('Renamed');
    expect(after.length).toBe(13);
    expect([...new Set(read)].sort()).toEqual(['c12', 'c3']);

    // A location's name is in every status of the account: all are read again.
    read.length = 0;
    const moved = config(f, [...renamed, { id: 'c12', enabled: false }]);
    moved.accounts[0]!.locations[0]!.name = 'Frankfurt am Main';
    expect(await s.reload(moved)).toEqual({ added: 0, changed: 0, removed: 0, waiting: [] });
    const again = await statuses(s);
    expect(new Set(read).size).toBe(13);
    expect(again.every((x) => x.locations[0]?.name === 'Frankfurt am Main')).toBe(true);
  });

  it("tells of the changes it does not apply: a restart's keys, an account's channels", async () => {
    const f = (target = await startTarget());
    const before = config(f, [{ id: 'one', enabled: false }]);
    const s = (svc = await startTestService({ config: before }));
    const after = config(f, [{ id: 'one', enabled: false }]);
    after.maxConcurrentBrowserRuns = before.maxConcurrentBrowserRuns + 1;
    after.metrics = { port: 0, host: '127.0.0.1' };
    after.accounts[0]!.alertChannels = [
      { type: 'EMAIL', name: 'On-call', config: { address: 'oncall@example.com' } },
    ];
    expect(await s.reload(after)).toEqual({
      added: 0,
      changed: 0,
      removed: 0,
      waiting: [
        'maxConcurrentBrowserRuns (takes a restart)',
        'metrics (takes a restart)',
        'accounts.0.alertChannels (created from the file for a new account only: change them over the API or the console)',
      ],
    });
    // What the summary says: the account's channels were not made from the file.
    const res = await fetch(`${s.url}/v1/alert-channels`, { headers });
    expect(((await res.json()) as { data: unknown[] }).data).toEqual([]);
    expect((await s.reload(after)).waiting).toEqual([]);
  });

  it('says what a failing database left undone, the new config in force, not that the old one runs', async () => {
    const f = (target = await startTarget());
    const before = config(f, [{ id: 'one', enabled: false }]);
    const s = (svc = await startTestService({ config: before }));
    const other = '5b1f0c2e-0d4a-4c1e-9a7b-2f3e4d5c6b7a';
    const after = ServiceConfigSchema.parse({
      ...before,
      accounts: [
        ...before.accounts,
        {
          id: other,
          apiKeys: ['k'.repeat(24)],
          locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
          checks: [],
          alertChannels: [{ type: 'EMAIL', name: 'On-call', config: { address: 'oncall@example.com' } }],
        },
      ],
    });
    s.storage.createChannel = () => Promise.reject(new Error('the database is away'));
    expect((await s.reload(after)).waiting).toEqual([
      'alert channels of the new accounts not created: the database is away',
    ]);
    // The new account is in force: its key opens its statuses.
    const res = await fetch(`${s.url}/v1/check-statuses`, {
      headers: { authorization: `Bearer ${'k'.repeat(24)}`, 'x-service-account': other },
    });
    expect(res.status).toBe(200);
  });

  it('answers the statuses list from the new config even when no status moved since the reload', async () => {
    // Disabled checks: nothing runs, so no status moves after the reload. The list's answer,
    // built again in the background while it is being read, must use the config of now.
    const f = (target = await startTarget());
    const clock = createFakeClock();
    const s = (svc = await startTestService({ config: config(f, [{ id: 'one', enabled: false }]), clock }));
    expect((await statuses(s)).map((c) => c.checkId)).toEqual(['one']);
    await s.reload(
      config(f, [
        { id: 'one', enabled: false },
        { id: 'two', enabled: false },
      ]),
    );
    await clock.advance(1_000);
    expect((await statuses(s)).map((c) => c.checkId)).toEqual(['one', 'two']);
    await clock.advance(2_500);
    expect((await statuses(s)).map((c) => c.checkId)).toEqual(['one', 'two']);
  });
});

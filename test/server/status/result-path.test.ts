// The write path of a result through the status engine alone (src/server/status/result-path.ts),
// on SQLite :memory: and a clock the test sets: what the alert planner is told of each
// change, the incident the rule (incident-rule.ts) opens and closes at the results'
// instants, a write that stored nothing moving nothing, and the version moving only
// with a status's value.
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/api/schemas/index.js';
import { createStatusEngine, type StatusChange } from '../../../src/server/status/engine.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import type { Storage } from '../../../src/server/storage/types.js';
import { accountConfig } from '../../helpers/configs.js';
import { sampleResult } from '../../helpers/samples.js';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const MIN = 60_000;

const config = accountConfig({
  locations: [{ id: 'eu', name: 'Frankfurt', region: 'eu-central-1' }],
  checks: [{ id: 'c1', name: 'API', target: 'http://127.0.0.1/x' }],
});
const account = config.accounts[0]!;
const check = account.checks[0]!;

/** A result that finished at `at`. */
function result(n: number, at: number, ok: boolean): CheckResult {
  const base = sampleResult(`r${n}`, {
    checkId: check.id,
    checkName: check.name,
    startedAt: new Date(at - 100).toISOString(),
    finishedAt: new Date(at).toISOString(),
    duration: 100,
    location: account.locations[0]!,
  });
  return ok ? { ...base, response: { ...base.response!, responseTime: 100 } } : { ...base, status: 'failed' };
}

let storage: Storage | undefined;
afterEach(() => storage?.close());

/** The engine on a fresh storage with 40 passing runs, each change it tells the planner noted. */
async function rig() {
  const s = (storage = openSqliteStorage(':memory:'));
  for (let i = 0; i < 40; i++) await s.insertResult(account.id, result(i, T0 - (40 - i) * MIN, true));
  const clock = { now: T0 };
  const changes: StatusChange[] = [];
  const engine = createStatusEngine({
    storage: s,
    scheduler: { nextRun: () => null, skippedReason: () => undefined },
    now: () => clock.now,
    alerts: {
      onStatusChange: (change) => {
        changes.push(change);
        return Promise.resolve(null);
      },
    },
  });
  let n = 100;
  /** Records a result finished just before the clock (a minute on each time), stored unless `stored` is false. */
  const record = (ok: boolean, stored = true) => {
    clock.now += MIN;
    const r = result(n++, clock.now - 500, ok);
    return {
      r,
      recorded: engine.record(account, check, r, async () => {
        if (stored) await s.insertResult(account.id, r);
        return stored;
      }),
    };
  };
  return { s, engine, changes, record };
}

describe('a result through the status engine', () => {
  it('tells the planner each change, opens the incident where the check turns failing and closes it where it recovers', async () => {
    const { s, engine, changes, record } = await rig();
    expect((await engine.statusOf(account, check)).status).toBe('passing');

    const first = record(false);
    expect(await first.recorded).toBe(true);
    expect((await engine.statusOf(account, check)).status).toBe('degraded');
    expect(await s.currentIncident(account.id, check.id)).toBeNull();

    const turning = record(false);
    await turning.recorded;
    const incident = await s.currentIncident(account.id, check.id);
    expect(incident).toMatchObject({ severity: 'critical', startedAt: Date.parse(turning.r.finishedAt) });
    expect(incident!.title).toMatch(/^API is failing/);
    expect((await engine.statusOf(account, check)).currentIncident?.id).toBe(incident!.id);

    const back = record(true);
    await back.recorded;
    expect((await engine.statusOf(account, check)).status).toBe('degraded');
    expect(await s.currentIncident(account.id, check.id)).toBeNull();
    const [closed] = await s.incidents(account.id, check.id, T0 - MIN, T0 + 10 * MIN);
    expect(closed).toMatchObject({ id: incident!.id, endedAt: Date.parse(back.r.finishedAt) });

    expect(changes.map((c) => [c.before, c.status.status, c.incidentId, c.result.id])).toEqual([
      ['passing', 'degraded', null, first.r.id],
      ['degraded', 'failing', incident!.id, turning.r.id],
      ['failing', 'degraded', incident!.id, back.r.id],
    ]);
  });

  it('moves nothing for a write that stored nothing (a run another holder has)', async () => {
    const { engine, changes, record } = await rig();
    await engine.statusOf(account, check);
    const version = engine.version();
    const lost = record(false, false);
    expect(await lost.recorded).toBe(false);
    expect(changes).toEqual([]);
    expect(engine.version()).toBe(version);
    expect((await engine.statusOf(account, check)).status).toBe('passing');
  });

  it('moves the version when a status value moves, not for a result that leaves it as it was', async () => {
    const { engine, record } = await rig();
    await engine.statusOf(account, check);
    const v0 = engine.version();
    await record(true).recorded;
    expect(engine.version()).toBe(v0);
    await record(false).recorded;
    expect(engine.version()).toBeGreaterThan(v0);
  });

  it('two failing results taken together open one incident', async () => {
    const { s, record } = await rig();
    await record(false).recorded;
    const both = [record(false), record(false)];
    expect(await Promise.all(both.map((b) => b.recorded))).toEqual([true, true]);
    const incidents = await s.incidents(account.id, check.id, T0, T0 + 10 * MIN);
    expect(incidents).toHaveLength(1);
    expect(incidents[0]!.startedAt).toBe(Date.parse(both[0]!.r.finishedAt));
  });
});

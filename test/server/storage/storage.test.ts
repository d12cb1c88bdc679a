// One suite against every storage implementation (STYLE: "storage behind an
// interface with one shared test suite"), each from test/helpers/storages.ts.
// Written against the Storage interface only; SQLite's own file handling last.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/api/schemas/index.js';
import Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/server/storage/sqlite/schema.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import type { AuditQuery, AuditRow, ResultQuery, Storage } from '../../../src/server/storage/types.js';
import { DAY_MS, HISTOGRAM_ERROR, HOUR_MS } from '../../../src/server/storage/history.js';
import { sampleResult } from '../../helpers/samples.js';
import { allStorages, openAlertRow, tempDb } from '../../helpers/storages.js';

const A = 'account-a';
const B = 'account-b';
const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const MIN = 60_000;

const alert = (id: string, openedAt: number) => openAlertRow(id, 'c1', openedAt);

interface Made {
  minute: number;
  ok?: boolean;
  location?: string;
  rt?: number | null;
  duration?: number;
  check?: string;
  trigger?: CheckResult['triggeredBy'];
}

function result(m: Made): CheckResult {
  const startedAt = T0 + m.minute * MIN;
  const rt = m.rt === undefined ? 100 + m.minute : m.rt;
  const loc = m.location ?? 'eu-west';
  return sampleResult(`r-${m.check ?? 'c1'}-${loc}-${m.minute}`, {
    checkId: m.check ?? 'c1',
    status: m.ok === false ? 'failed' : 'success',
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(startedAt + (m.duration ?? 150)).toISOString(),
    duration: m.duration ?? 150,
    location: { id: loc, name: loc, region: loc },
    triggeredBy: m.trigger ?? 'schedule',
    response:
      rt === null
        ? null
        : { statusCode: 200, statusText: 'OK', headers: {}, body: '{}', responseTime: rt, size: 2 },
    ...(m.ok === false && rt === null
      ? { error: { name: 'E', message: 'refused', stack: 'E: refused' } }
      : {}),
  });
}

const query = (over: Partial<ResultQuery> = {}): ResultQuery => ({
  accountId: A,
  checkId: 'c1',
  from: T0,
  to: T0 + 1000 * MIN,
  sortBy: 'startedAt',
  sortOrder: 'desc',
  offset: 0,
  limit: 100,
  ...over,
});

describe.each(allStorages())('storage: $name', ({ open }) => {
  let s: Storage;
  beforeEach(async () => {
    s = await open();
  });
  afterEach(() => s.close());

  describe('results', () => {
    beforeEach(async () => {
      // 20 runs, one a minute: every 4th failed, two locations, one manual run, one without a response.
      await s.insertResults(
        A,
        Array.from({ length: 20 }, (_, i) =>
          result({
            minute: i,
            ok: i % 4 !== 3,
            location: i % 2 ? 'us-east' : 'eu-west',
            duration: 200 - i,
            trigger: i === 5 ? 'manual' : 'schedule',
            rt: i === 19 ? null : undefined,
          }),
        ),
      );
      await s.insertResult(B, result({ minute: 1 }));
      await s.insertResult(A, result({ minute: 1, check: 'c2' }));
    });

    it('reads back exactly what was stored, newest first, one account and check only', async () => {
      const { items, total } = await s.queryResults(query());
      expect(total).toBe(20);
      expect(items[0]).toEqual(
        result({ minute: 19, ok: false, location: 'us-east', duration: 181, rt: null }),
      );
      expect(items.map((r) => r.startedAt)).toEqual([...items.map((r) => r.startedAt)].sort().reverse());
      expect((await s.queryResults(query({ accountId: B }))).total).toBe(1);
      expect((await s.queryResults(query({ checkId: 'c2' }))).total).toBe(1);
    });

    it('filters by window, status, location, trigger and response time', async () => {
      const total = async (over: Partial<ResultQuery>) => (await s.queryResults(query(over))).total;
      expect(await total({ from: T0 + 10 * MIN })).toBe(10);
      expect(await total({ to: T0 + 9 * MIN })).toBe(10);
      expect(await total({ from: T0 + 5 * MIN, to: T0 + 5 * MIN })).toBe(1);
      expect(await total({ status: 'failed' })).toBe(5);
      expect(await total({ status: 'success' })).toBe(15);
      expect(await total({ location: 'us-east' })).toBe(10);
      expect(await total({ location: 'nowhere' })).toBe(0);
      expect(await total({ triggeredBy: 'manual' })).toBe(1);
      expect(await total({ responseTimeMin: 110, responseTimeMax: 114 })).toBe(5);
      expect(await total({ status: 'failed', location: 'us-east', responseTimeMax: 107 })).toBe(2);
    });

    it('sorts by startedAt, duration and response time both ways, and pages', async () => {
      const ids = async (over: Partial<ResultQuery>) =>
        (await s.queryResults(query(over))).items.map((r) => r.id);
      expect(await ids({ sortOrder: 'asc', limit: 2 })).toEqual(['r-c1-eu-west-0', 'r-c1-us-east-1']);
      // duration falls as minutes rise
      expect(await ids({ sortBy: 'duration', sortOrder: 'asc', limit: 1 })).toEqual(['r-c1-us-east-19']);
      expect(await ids({ sortBy: 'duration', sortOrder: 'desc', limit: 1 })).toEqual(['r-c1-eu-west-0']);
      expect(await ids({ sortBy: 'responseTime', sortOrder: 'desc', limit: 1 })).toEqual(['r-c1-eu-west-18']);
      expect(await ids({ sortBy: 'responseTime', sortOrder: 'asc', limit: 1 })).toEqual(['r-c1-eu-west-0']);
      const pages = (await Promise.all([0, 7, 14].map((offset) => ids({ offset, limit: 7 })))).flat();
      expect(pages).toEqual(await ids({}));
      expect(new Set(pages).size).toBe(20);
    });

    it('summarises the filtered window with nearest-rank percentiles', async () => {
      expect(await s.summarizeResults(query())).toEqual({
        totalRuns: 20,
        successfulRuns: 15,
        failedRuns: 5,
        successRate: 75,
        averageResponseTime: 109, // 100..118
        p95ResponseTime: 118, // rank ceil(0.95 * 19) = 19
        p99ResponseTime: 118,
      });
      expect(await s.summarizeResults(query({ location: 'eu-west' }))).toMatchObject({
        totalRuns: 10,
        averageResponseTime: 109, // 100, 102, .. 118
        p95ResponseTime: 118,
      });
      expect(await s.summarizeResults(query({ from: T0 + 999 * MIN }))).toEqual({
        totalRuns: 0,
        successfulRuns: 0,
        failedRuns: 0,
        successRate: 0,
        averageResponseTime: 0,
        p95ResponseTime: 0,
        p99ResponseTime: 0,
      });
    });

    it('gives window figures and runs, recent runs per location, last success and the latest result', async () => {
      expect(await s.windowStats(A, 'c1', T0, T0 + 9 * MIN)).toEqual({
        total: 10,
        successes: 8,
        timed: 10,
        averageResponseTime: 104.5,
        p95ResponseTime: 109,
      });
      expect((await s.windowStats(A, 'c1', T0, T0 + 9 * MIN, false)).p95ResponseTime).toBeNull();
      expect(await s.windowStats(A, 'nope', T0, T0 + 9 * MIN)).toEqual({
        total: 0,
        successes: 0,
        timed: 0,
        averageResponseTime: null,
        p95ResponseTime: null,
      });
      expect((await s.windowStats(A, 'c1', T0 + 15 * MIN, T0 + 19 * MIN)).timed).toBe(4);
      expect(await s.windowRuns(A, 'c1', T0 + 16 * MIN, T0 + 19 * MIN, 3)).toEqual([
        { startedAt: T0 + 19 * MIN, status: 'failed', responseTime: null, locationId: 'us-east' },
        { startedAt: T0 + 18 * MIN, status: 'success', responseTime: 118, locationId: 'eu-west' },
        { startedAt: T0 + 17 * MIN, status: 'success', responseTime: 117, locationId: 'us-east' },
      ]);
      expect(await s.windowRuns(A, 'c1', T0 + 30 * MIN, T0 + 40 * MIN, 3)).toEqual([]);
      expect(await s.recentRuns(A, 'c1', 'us-east', 3)).toEqual([
        { startedAt: T0 + 19 * MIN, status: 'failed', responseTime: null },
        { startedAt: T0 + 17 * MIN, status: 'success', responseTime: 117 },
        { startedAt: T0 + 15 * MIN, status: 'failed', responseTime: 115 },
      ]);
      expect(await s.lastSuccess(A, 'c1', 'us-east')).toBe(T0 + 17 * MIN);
      expect(await s.lastSuccess(A, 'c1', 'ap-south')).toBeNull();
      expect((await s.latestResult(A, 'c1'))?.id).toBe('r-c1-us-east-19');
      expect(await s.latestResult(A, 'nope')).toBeNull();
    });

    it('keeps every character of a result: quotes, backslashes, braces, commas, newlines, non-ASCII', async () => {
      const awkward =
        'a "quoted" \\ back\\slash, {brace} [x] \n line\ttab \u00e9t\u00e9 \u{1F6A8} \u0001 NULL';
      const made = (minute: number, check: string): CheckResult => {
        const r = result({ minute, check });
        return {
          ...r,
          checkName: awkward,
          response: { ...r.response!, body: awkward, headers: { 'x-odd': awkward } },
        };
      };
      // Several at once (one statement), one alone, and one completed as a run's result.
      const batch = [made(30, 'odd'), made(31, 'odd'), made(32, 'odd')];
      await s.insertResults(A, batch);
      await s.insertResult(A, made(33, 'odd'));
      const run = await s.offerRun({ accountId: A, checkId: 'odd', locationId: 'eu-west', dueAt: T0 }, T0, {
        token: 't',
        leaseMs: 60_000,
      });
      const reported = { ...made(34, 'odd'), id: run!.id };
      expect(await s.completeRun(run!.id, 't', A, reported)).toBe(true);
      const { items } = await s.queryResults(query({ checkId: 'odd', sortOrder: 'asc' }));
      expect(items).toEqual([...batch, made(33, 'odd'), reported]);
    });

    it('finds the certificate of the newest result that carried one, past a result without (issue 35)', async () => {
      expect(await s.latestCertificate(A, 'c1')).toBeNull();
      const certificate = (validTo: string) => ({
        subject: 'CN=shop.example.com, O=Shop "Ltd"',
        issuer: 'CN=R11',
        serialNumber: '04A1',
        validFrom: '2026-10-01T00:00:00.000Z',
        validTo,
        daysRemaining: 30,
        chainValidTo: null,
        chainDaysRemaining: null,
      });
      await s.insertResult(A, {
        ...result({ minute: 30 }),
        certificate: certificate('2026-12-01T00:00:00.000Z'),
      });
      await s.insertResult(A, {
        ...result({ minute: 31 }),
        certificate: certificate('2027-01-01T00:00:00.000Z'),
      });
      await s.insertResult(A, result({ minute: 32, ok: false }));
      expect(await s.latestCertificate(A, 'c1')).toEqual(certificate('2027-01-01T00:00:00.000Z'));
      expect(await s.latestCertificate(B, 'c1')).toBeNull();
      expect(await s.latestCertificate(A, 'c2')).toBeNull();
    });

    it("finds each location's newest certificate, past a run without one, in the order asked", async () => {
      const certificate = (serialNumber: string) => ({
        subject: 'CN=shop.example.com',
        issuer: 'CN=R11',
        serialNumber,
        validFrom: '2026-10-01T00:00:00.000Z',
        validTo: '2026-12-01T00:00:00.000Z',
        daysRemaining: 30,
        chainValidTo: null,
        chainDaysRemaining: null,
      });
      const at = (minute: number, location: string, serial: string) => ({
        ...result({ minute, location }),
        certificate: certificate(serial),
      });
      await s.insertResults(A, [
        at(30, 'eu-west', 'OLD'),
        at(31, 'us-east', 'OLD'),
        at(32, 'eu-west', 'NEW'),
      ]);
      // A failed run shows no certificate: the location's is still the one before it.
      await s.insertResult(A, result({ minute: 33, location: 'us-east', ok: false }));
      expect(await s.latestCertificates(A, 'c1', ['us-east', 'nowhere', 'eu-west'])).toEqual([
        { locationId: 'us-east', certificate: certificate('OLD') },
        { locationId: 'eu-west', certificate: certificate('NEW') },
      ]);
      expect(await s.latestCertificates(A, 'c1', [])).toEqual([]);
      expect(await s.latestCertificates(B, 'c1', ['eu-west'])).toEqual([]);
      expect(await s.latestCertificates(A, 'c2', ['eu-west'])).toEqual([]);
    });

    it('stores a result once: the same id again replaces it', async () => {
      await s.insertResult(A, { ...result({ minute: 0 }), checkName: 'renamed' });
      expect((await s.queryResults(query())).total).toBe(20);
      expect((await s.queryResults(query({ sortOrder: 'asc', limit: 1 }))).items[0]!.checkName).toBe(
        'renamed',
      );
    });

    it('prunes results, alert events and closed incidents older than the cut-off, never open incidents', async () => {
      await s.openIncident(A, {
        id: 'old-open',
        checkId: 'c1',
        severity: 'critical',
        title: 't',
        startedAt: T0,
        endedAt: null,
      });
      await s.openIncident(A, {
        id: 'old',
        checkId: 'c2',
        severity: 'critical',
        title: 't',
        startedAt: T0,
        endedAt: null,
      });
      await s.closeIncident(A, 'c2', T0 + MIN);
      await s.applyAlertChange(A, {
        checkId: 'c1',
        at: T0,
        openAlert: alert('old-alert', T0),
        notifications: [],
      });
      await s.applyAlertChange(A, {
        checkId: 'c1',
        at: T0 + MIN,
        resolveAlert: 'old-alert',
        notifications: [],
      });
      await s.applyAlertChange(A, {
        checkId: 'c1',
        at: T0,
        openAlert: alert('new-alert', T0 + 30 * MIN),
        notifications: [],
      });
      expect(await s.prune(T0 + 10 * MIN)).toBe(12); // c1 minutes 0-9, c2 minute 1, account B minute 1
      expect((await s.queryResults(query())).total).toBe(10);
      expect((await s.queryResults(query({ accountId: B }))).total).toBe(0);
      expect((await s.currentIncident(A, 'c1'))?.id).toBe('old-open');
      expect((await s.alertCounts(A, 'c1', T0 + 31 * MIN)).total24h).toBe(1);
      expect(await s.prune(T0 + 10 * MIN)).toBe(0);
    });

    it("keeps a result's screenshot for its account and check only, and prunes it with the result", async () => {
      const old = result({ minute: 2 });
      const recent = result({ minute: 12 });
      const png = (byte: number) => Uint8Array.from([0x89, 0x50, 0x4e, 0x47, byte]);
      await s.insertScreenshot(A, old, png(1));
      await s.insertScreenshot(A, recent, png(2));
      expect([...(await s.screenshot(A, 'c1', old.id))!]).toEqual([...png(1)]);
      expect(await s.screenshot(B, 'c1', old.id)).toBeNull();
      expect(await s.screenshot(A, 'c2', old.id)).toBeNull();
      expect(await s.screenshot(A, 'c1', 'no-such-result')).toBeNull();
      await s.prune(T0 + 10 * MIN);
      expect(await s.screenshot(A, 'c1', old.id)).toBeNull();
      expect([...(await s.screenshot(A, 'c1', recent.id))!]).toEqual([...png(2)]);
    });
  });

  describe('history (roll-ups)', () => {
    const incidentIds = async (st: Storage) =>
      (await st.incidents(A, 'c1', 0, T0 + 100 * DAY_MS)).map((i) => i.id);
    // T0 is 10:00 UTC. 150 runs, one every 2 minutes from 10:00 (five hours, to 14:58),
    // alternating eu-west and us-east; every 10th failed without a response;
    // response times spread from 5 to 4,500 ms so the p95 lands in a wide bin.
    const made = Array.from({ length: 150 }, (_, i) =>
      result({
        minute: 2 * i,
        location: i % 2 === 0 ? 'eu-west' : 'us-east',
        ok: i % 10 !== 9,
        rt: i % 10 === 9 ? null : 5 + ((i * 37) % 150) * 30,
      }),
    );
    const rtOf = (r: CheckResult) => r.response?.responseTime ?? null;
    const exactP95 = (rs: readonly CheckResult[]) => {
      const times = rs
        .map(rtOf)
        .filter((t): t is number => t !== null)
        .sort((x, y) => x - y);
      return times[Math.ceil(0.95 * times.length) - 1]!;
    };
    const expectBucket = (
      bucket: {
        runs: number;
        failures: number;
        timed: number;
        responseTimeSum: number;
        p95ResponseTime: number | null;
      },
      rs: readonly CheckResult[],
    ) => {
      const times = rs.map(rtOf).filter((t): t is number => t !== null);
      expect(bucket.runs).toBe(rs.length);
      expect(bucket.failures).toBe(rs.filter((r) => r.status === 'failed').length);
      expect(bucket.timed).toBe(times.length);
      expect(bucket.responseTimeSum).toBe(times.reduce((a, b) => a + b, 0));
      const exact = exactP95(rs);
      expect(Math.abs(bucket.p95ResponseTime! - exact)).toBeLessThanOrEqual(HISTOGRAM_ERROR * exact);
    };
    const hourOf = (r: CheckResult) => Date.parse(r.startedAt) - (Date.parse(r.startedAt) % HOUR_MS);

    it('rolls results up by hour and UTC day, per location and summed over locations', async () => {
      // Stored as they are in service: some alone, the rest in one batch.
      for (const r of made.slice(0, 5)) await s.insertResult(A, r);
      await s.insertResults(A, made.slice(5));
      await s.insertResult(B, { ...made[0]!, id: 'other-account-0' });
      const day = T0 - (T0 % DAY_MS);
      const hours = await s.history(A, 'c1', { from: day, to: day + DAY_MS - 1, granularity: 'hour' });
      expect(hours.map((b) => new Date(b.start).toISOString())).toEqual([
        '2026-11-22T10:00:00.000Z',
        '2026-11-22T11:00:00.000Z',
        '2026-11-22T12:00:00.000Z',
        '2026-11-22T13:00:00.000Z',
        '2026-11-22T14:00:00.000Z',
      ]);
      for (const b of hours) {
        expect(b.locationId).toBeNull();
        expectBucket(
          b,
          made.filter((r) => hourOf(r) === b.start),
        );
      }
      const eu = await s.history(A, 'c1', {
        from: day,
        to: day + DAY_MS - 1,
        granularity: 'hour',
        locationId: 'eu-west',
      });
      expect(eu[0]!.locationId).toBe('eu-west');
      expectBucket(
        eu[0]!,
        made.filter((r) => hourOf(r) === T0 && r.location.id === 'eu-west'),
      );
      const days = await s.history(A, 'c1', { from: day - DAY_MS, to: day + DAY_MS, granularity: 'day' });
      expect(days).toHaveLength(1);
      expect(days[0]!.start).toBe(day);
      expectBucket(days[0]!, made);
      expectBucket(await s.historyTotals(A, 'c1', { from: day, to: day, granularity: 'day' }), made);
      // Another account's and another check's are their own.
      expect((await s.historyTotals(B, 'c1', { from: day, to: day, granularity: 'day' })).runs).toBe(1);
      expect(await s.history(A, 'c2', { from: day, to: day, granularity: 'day' })).toEqual([]);
    });

    it('counts a result stored again under its id once, and a run completed through the queue', async () => {
      await s.insertResults(A, made.slice(0, 10));
      await s.insertResults(A, made.slice(0, 10));
      await s.insertResult(A, made[0]!);
      const run = await s.offerRun(
        { accountId: A, checkId: 'c1', locationId: 'eu-west', dueAt: T0 + 500 * MIN },
        T0,
        { token: 'me', leaseMs: 60_000 },
      );
      expect(await s.completeRun(run!.id, 'me', A, result({ minute: 500, ok: false, rt: null }))).toBe(true);
      const day = T0 - (T0 % DAY_MS);
      const totals = await s.historyTotals(A, 'c1', { from: day, to: day, granularity: 'day' });
      expect(totals.runs).toBe(11);
      expect(totals.failures).toBe(2);
    });

    it('keeps roll-ups and closed incidents past the results, until their own cut-offs', async () => {
      await s.insertResults(A, made);
      await s.openIncident(A, {
        id: 'closed',
        checkId: 'c1',
        severity: 'critical',
        title: 'down',
        startedAt: T0,
        endedAt: null,
      });
      await s.closeIncident(A, 'c1', T0 + MIN);
      const day = T0 - (T0 % DAY_MS);
      const later = T0 + 10 * DAY_MS;
      // Raw retention past every result; history kept.
      await s.prune(later, { before: day, hourlyBefore: T0 + HOUR_MS });
      expect((await s.queryResults(query({ to: later }))).total).toBe(0);
      expect((await s.historyTotals(A, 'c1', { from: day, to: day, granularity: 'day' })).runs).toBe(150);
      const hours = await s.history(A, 'c1', { from: day, to: later, granularity: 'hour' });
      expect(hours.map((b) => b.start)).toEqual([1, 2, 3, 4].map((h) => T0 + h * HOUR_MS));
      // The incident is closed and older than the results' cut-off, but kept as history.
      await s.openIncident(A, {
        id: 'open',
        checkId: 'c1',
        severity: 'critical',
        title: 'down again',
        startedAt: later,
        endedAt: null,
      });
      await s.closeIncident(A, 'c1', later + MIN);
      expect(await incidentIds(s)).toEqual(['closed', 'open']);
      // Past historyDays: gone.
      await s.prune(later, { before: day + DAY_MS, hourlyBefore: later });
      expect(await s.history(A, 'c1', { from: 0, to: later, granularity: 'day' })).toEqual([]);
      expect(await s.history(A, 'c1', { from: 0, to: later, granularity: 'hour' })).toEqual([]);
      expect(await incidentIds(s)).toEqual(['open']);
    });
  });

  describe('alert channels', () => {
    const email = (name: string) => ({ type: 'EMAIL' as const, name, config: { address: 'a@b.co' } });

    it('creates channels with increasing integer ids up to the limit, per account', async () => {
      const first = await s.createChannel(A, email('one'), 2, T0);
      const second = await s.createChannel(A, email('two'), 2, T0 + 1);
      const third = await s.createChannel(A, email('three'), 2, T0 + 2);
      expect(first).toMatchObject({
        ok: true,
        channel: { name: 'one', createdAt: '2026-11-22T10:00:00.000Z' },
      });
      expect(first.ok && second.ok && second.channel.id > first.channel.id).toBe(true);
      expect(first.ok && first.channel.createdAt === first.channel.updatedAt).toBe(true);
      expect(third).toEqual({ ok: false, reason: 'limit', limit: 2 });
      expect(await s.countChannels(A)).toBe(2);
      expect((await s.createChannel(B, email('b'), 2, T0)).ok).toBe(true);
      expect(await s.createChannel(A, email('zero'), 0, T0)).toMatchObject({ ok: false });
    });

    it('lists them oldest first, paged, with the config as stored', async () => {
      for (let i = 0; i < 5; i++) await s.createChannel(A, email(`c${i}`), 10, T0 + i);
      const webhook = {
        type: 'WEBHOOK' as const,
        name: 'hook',
        config: {
          url: 'https://x.example/h?k=1',
          method: 'POST' as const,
          headers: [{ key: 'Authorization', value: 's3cr3t' }],
        },
      };
      await s.createChannel(A, webhook, 10, T0 + 9);
      const page = await s.listChannels(A, 2, 2);
      expect(page.total).toBe(6);
      expect(page.items.map((c) => c.name)).toEqual(['c2', 'c3']);
      expect((await s.listChannels(A, 5, 10)).items[0]).toMatchObject(webhook);
      expect(await s.listChannels(B, 0, 10)).toEqual({ items: [], total: 0 });
    });
  });

  describe('pings, incidents and alert events', () => {
    it('keeps the latest ping per check', async () => {
      expect(await s.lastPing(A, 'hb')).toBeNull();
      await s.recordPing(A, 'hb', T0);
      await s.recordPing(A, 'hb', T0 + 5);
      expect(await s.lastPing(A, 'hb')).toBe(T0 + 5);
      expect(await s.lastPing(B, 'hb')).toBeNull();
    });

    it("keeps a heartbeat's runs under way and notes per check, and forgets them when none is left", async () => {
      expect(await s.heartbeatRuns(A, 'hb')).toEqual({ starts: {}, notes: [] });
      const runs = { starts: { 'run-1': T0, '': T0 + 5 }, notes: ['dumped "3" tables\n'] };
      await s.saveHeartbeatRuns(A, 'hb', runs);
      expect(await s.heartbeatRuns(A, 'hb')).toEqual(runs);
      expect(await s.heartbeatRuns(B, 'hb')).toEqual({ starts: {}, notes: [] });
      await s.saveHeartbeatRuns(A, 'hb', { starts: { '': T0 + 5 }, notes: [] });
      expect(await s.heartbeatRuns(A, 'hb')).toEqual({ starts: { '': T0 + 5 }, notes: [] });
      await s.saveHeartbeatRuns(A, 'hb', { starts: {}, notes: [] });
      expect(await s.heartbeatRuns(A, 'hb')).toEqual({ starts: {}, notes: [] });
    });

    it('opens and closes incidents and counts alert events of the last 24 h', async () => {
      const incident = {
        id: 'i1',
        checkId: 'c1',
        severity: 'critical',
        title: 'down',
        startedAt: T0,
        endedAt: null,
      };
      await s.applyAlertChange(A, {
        checkId: 'c1',
        at: T0,
        openIncident: incident,
        openAlert: alert('a1', T0),
        notifications: [],
      });
      expect(await s.currentIncident(A, 'c1')).toEqual(incident);
      expect(await s.currentIncident(B, 'c1')).toBeNull();
      expect(await s.alertCounts(A, 'c1', T0 + MIN)).toEqual({ active: 1, acknowledged: 0, total24h: 1 });
      await s.applyAlertChange(A, {
        checkId: 'c1',
        at: T0 + 2 * MIN,
        closeIncidentAt: T0 + 2 * MIN,
        resolveAlert: 'a1',
        notifications: [],
      });
      expect(await s.currentIncident(A, 'c1')).toBeNull();
      expect(await s.alertCounts(A, 'c1', T0 + 3 * MIN)).toEqual({ active: 0, acknowledged: 0, total24h: 1 });
      expect((await s.alertCounts(A, 'c1', T0 + 86_400_001)).total24h).toBe(0);
    });
  });

  describe('audit events', () => {
    const event = (n: number, over: Partial<AuditRow> = {}): AuditRow => ({
      id: `e${n}`,
      at: T0 + n * MIN,
      keyName: 'oncall',
      action: 'acknowledge',
      checkId: 'c1',
      targetId: `alert-${n}`,
      details: { n, quote: 'a "b" \\ c' },
      ...over,
    });

    it('keeps them per account, newest first (recorded order within a millisecond), paged', async () => {
      await s.recordAudit(A, event(1));
      await s.recordAudit(A, event(2, { action: 'channel.create', checkId: undefined, targetId: '7' }));
      await s.recordAudit(A, event(3, { at: T0 + 2 * MIN, keyName: 'platform', details: {} }));
      await s.recordAudit(B, event(4));
      const all = await s.auditEvents(A, { offset: 0, limit: 10 });
      expect(all.total).toBe(3);
      expect(all.items.map((e) => e.id)).toEqual(['e3', 'e2', 'e1']);
      expect(all.items[1]).toEqual({
        id: 'e2',
        at: T0 + 2 * MIN,
        keyName: 'oncall',
        action: 'channel.create',
        targetId: '7',
        details: { n: 2, quote: 'a "b" \\ c' },
      });
      expect(all.items[2]).toEqual(event(1));
      const page = await s.auditEvents(A, { offset: 1, limit: 1 });
      expect(page).toEqual({ items: [all.items[1]], total: 3 });
      expect((await s.auditEvents(B, { offset: 0, limit: 10 })).items.map((e) => e.id)).toEqual(['e4']);
    });

    it('filters by check, action and time', async () => {
      for (let n = 1; n <= 6; n++)
        await s.recordAudit(
          A,
          event(n, {
            checkId: n % 2 === 0 ? 'c2' : 'c1',
            action: n % 3 === 0 ? 'run' : 'acknowledge',
          }),
        );
      const ids = async (q: Partial<AuditQuery>) =>
        (await s.auditEvents(A, { offset: 0, limit: 10, ...q })).items.map((e) => e.id);
      expect(await ids({ checkId: 'c2' })).toEqual(['e6', 'e4', 'e2']);
      expect(await ids({ action: 'run' })).toEqual(['e6', 'e3']);
      expect(await ids({ checkId: 'c1', action: 'acknowledge' })).toEqual(['e5', 'e1']);
      expect(await ids({ from: T0 + 2 * MIN, to: T0 + 4 * MIN })).toEqual(['e4', 'e3', 'e2']);
      expect((await s.auditEvents(A, { from: T0 + 5 * MIN, offset: 0, limit: 1 })).total).toBe(2);
    });
  });
});

describe('SQLite on a file', () => {
  it('runs in WAL mode', async () => {
    const path = tempDb();
    await openSqliteStorage(path).close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('keeps results, channels, pings and incidents across a reopen', async () => {
    const path = tempDb();
    const first = openSqliteStorage(path);
    await first.insertResult(A, result({ minute: 1 }));
    await first.createChannel(
      A,
      { type: 'SMS', name: 'pager', config: { number: '+15550100', name: 'p' } },
      5,
      T0,
    );
    await first.recordPing(A, 'hb', T0);
    await first.openIncident(A, {
      id: 'i',
      checkId: 'c1',
      severity: 'critical',
      title: 't',
      startedAt: T0,
      endedAt: null,
    });
    await first.close();
    const again = openSqliteStorage(path);
    expect((await again.queryResults(query())).items).toEqual([result({ minute: 1 })]);
    expect((await again.listChannels(A, 0, 10)).items.map((c) => c.name)).toEqual(['pager']);
    expect(await again.lastPing(A, 'hb')).toBe(T0);
    expect((await again.currentIncident(A, 'c1'))?.id).toBe('i');
    await again.close();
  });

  // Every schema version this checkwall ever wrote, from an empty file on.
  it.each(Array.from({ length: SCHEMA_VERSION }, (_, v) => v))(
    'opens a database at schema version %i and brings it up to date',
    async (version) => {
      const path = tempDb();
      const old = new Database(path);
      MIGRATIONS.slice(0, version).forEach((sql) => old.exec(sql));
      old.pragma(`user_version = ${version}`);
      old.close();
      const s = openSqliteStorage(path);
      await s.insertResult(A, result({ minute: 2 }));
      expect((await s.queryResults(query())).total).toBe(1);
      await s.close();
      const db = new Database(path, { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      db.close();
    },
  );

  it('upgrades a database of the schema before roll-ups, rolling up the results it holds', async () => {
    const path = tempDb();
    const db = new Database(path);
    // Every migration before the roll-ups' own.
    const rollups = MIGRATIONS.findIndex((sql) => sql.includes('history_hourly'));
    MIGRATIONS.slice(0, rollups).forEach((sql) => db.exec(sql));
    db.pragma(`user_version = ${rollups}`);
    db.prepare(
      `INSERT INTO results (id, account_id, check_id, location_id, ok, started_at, duration, response_time, triggered_by, json)
       VALUES ('old-1', ?, 'c1', 'eu-west', 0, ?, 10, NULL, 'schedule', '{}'), ('old-2', ?, 'c1', 'eu-west', 1, ?, 10, 120, 'schedule', '{}')`,
    ).run(A, T0, A, T0 + MIN);
    db.close();
    const s = openSqliteStorage(path);
    const day = T0 - (T0 % DAY_MS);
    expect(await s.history(A, 'c1', { from: day, to: day, granularity: 'day' })).toEqual([
      {
        start: day,
        locationId: null,
        runs: 2,
        failures: 1,
        timed: 1,
        responseTimeSum: 120,
        p95ResponseTime: 108,
      },
    ]);
    expect((await s.history(A, 'c1', { from: T0, to: T0, granularity: 'hour' }))[0]?.runs).toBe(2);
    await s.close();
  });

  it('refuses a database written by a newer schema, and an unopenable path, with the path named', async () => {
    const path = tempDb();
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openSqliteStorage(path)).toThrow(`cannot open the database ${path}: it has schema version`);
    const file = tempDb();
    await openSqliteStorage(file).close();
    expect(() => openSqliteStorage(join(file, 'inside.db'))).toThrow(/cannot open the database .*inside\.db/);
  });
});

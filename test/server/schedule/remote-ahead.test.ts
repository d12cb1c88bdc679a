// A remote location's runs are offered shortly before they fall due, those of a
// moment together, and a runner gets each from its due time on (issue 12): in
// bench:scale an offer made as each run fell due was a statement of its own, 68 a
// second per instance. And a poll made just after a claim that took every run due
// waits before it claims (it found nothing nearly every time: half of all claims), and a
// run due while a poll was claiming, whose wake found no one waiting, is claimed at once.
// Against the real service, its queue and a long-polling runner.
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAIM_GATHER_MS } from '../../../src/server/schedule/runner-hub.js';
import type { RunKey } from '../../../src/server/storage/types.js';
import { remoteConfig, RUNNER_TOKEN, until as pollUntil } from '../../helpers/runner.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

interface Job {
  runId: string;
  dueAt: string;
}

/** The service with these remote checks (at "far", a runner's location), its scheduler running. */
const scheduled = (checks: Parameters<typeof remoteConfig>[1]) =>
  startTestService({ config: remoteConfig('http://127.0.0.1:9', checks), startScheduler: true });

/** One long poll of a runner of "far": the jobs it got and when. */
async function claim(url: string): Promise<{ at: number; jobs: Job[] }> {
  const res = await request(`${url}/v1/runner/claim`, {
    method: 'POST',
    headers: { authorization: `Bearer ${RUNNER_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ runnerId: 'ahead-test', max: 100, waitSeconds: 5 }),
  });
  const body = (await res.body.json()) as { data: { jobs: Job[] } };
  return { at: Date.now(), jobs: body.data.jobs };
}

/** How late a run's wake, or a poll's arrival, may come here: for the test of a poll's first claim. */
const WAKE_LATE_MS = 25;

describe('remote runs offered ahead', () => {
  it('are offered before they fall due, several in one turn, and claimed only from their due time', async () => {
    const checks = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, frequency: '4s' }));
    service = await scheduled(checks);
    // The scheduler reads its queue's method at each offer: each offer is noted with the turn it was made in.
    const storage = service.storage;
    const real = storage.offerRun.bind(storage);
    const offers: Array<{ at: number; turn: number; key: RunKey }> = [];
    let turn = 0;
    const nextTurn = setInterval(() => turn++, 0);
    storage.offerRun = (key, now, holder) => {
      offers.push({ at: Date.now(), turn, key });
      return real(key, now, holder);
    };
    const polls: Array<{ at: number; jobs: Job[] }> = [];
    try {
      const until = Date.now() + 9_000;
      while (Date.now() < until) polls.push(await claim(service.url));
    } finally {
      clearInterval(nextTurn);
    }

    // The first turn of each check catches up (due in the past, offered at once): the ones after it.
    const onGrid = offers[0]!.at + 4_000;
    const made = offers.filter((o) => o.key.dueAt > onGrid);
    expect(made.length).toBeGreaterThanOrEqual(12);
    for (const o of made) {
      // Ahead of its due time, by at most the second (and the 250 ms gather) it is offered ahead.
      expect(o.key.dueAt - o.at).toBeGreaterThan(0);
      expect(o.key.dueAt - o.at).toBeLessThanOrEqual(1_100);
    }
    // Offers of a moment go together: fewer turns than offers.
    expect(new Set(made.map((o) => o.turn)).size).toBeLessThan(made.length);

    // Every job was given at or after its due time, and soon after it (woken at due, gathering 250 ms).
    const given = polls
      .flatMap((p) => p.jobs.map((j) => ({ at: p.at, dueAt: Date.parse(j.dueAt) })))
      .filter((g) => g.dueAt > onGrid);
    expect(given.length).toBeGreaterThanOrEqual(12);
    for (const g of given) {
      expect(g.at).toBeGreaterThanOrEqual(g.dueAt);
      expect(g.at - g.dueAt).toBeLessThan(1_500);
    }
  });

  it('waits before the first claim of a poll that follows one that took every run due', async () => {
    const checks = Array.from({ length: 3 }, (_, i) => ({ id: `w${i}`, frequency: '2s' }));
    service = await scheduled(checks);
    const storage = service.storage;
    const real = storage.claimRuns.bind(storage);
    const claims: number[] = [];
    storage.claimRuns = (...args) => {
      claims.push(Date.now());
      return real(...args);
    };
    const polls: Array<{ from: number; at: number; jobs: Job[] }> = [];
    const until = Date.now() + 7_000;
    while (Date.now() < until) {
      const from = Date.now();
      polls.push({ from, ...(await claim(service.url)) });
    }

    // A poll right after one that was given runs (all it wanted: fewer than its 100) looks
    // at the queue only when woken for the next run, after a gather, or at the poll step;
    // unless a run's wake came after the last claim and found no poll waiting: then it
    // claims at once, as the last test shows. That is a run due between the last claim and
    // the poll reaching the service (a few ms after the test sent it), or one due just as
    // that claim was made (its wake fires at or a few ms after its due time, even when the
    // claim took the run).
    const due = polls.flatMap((p) => p.jobs.map((j) => Date.parse(j.dueAt)));
    const missedBefore = (from: number) => {
      const lastClaim = Math.max(...claims.filter((c) => c < from));
      return due.some((d) => d >= lastClaim - WAKE_LATE_MS && d <= from + WAKE_LATE_MS);
    };
    const after = polls.filter((p, i) => i > 0 && polls[i - 1]!.jobs.length > 0 && !missedBefore(p.from));
    expect(after.length).toBeGreaterThanOrEqual(4);
    for (const p of after) {
      const first = claims.find((c) => c >= p.from);
      expect(first! - p.from).toBeGreaterThanOrEqual(CLAIM_GATHER_MS - 5);
    }
    // Each run still reaches the runner soon after it falls due (after each check's first, caught up at the start).
    const onGrid = polls[0]!.from + 2_000;
    const given = polls.flatMap((p) =>
      p.jobs.filter((j) => Date.parse(j.dueAt) > onGrid).map((j) => p.at - Date.parse(j.dueAt)),
    );
    expect(given.length).toBeGreaterThanOrEqual(6);
    for (const late of given) expect(late).toBeLessThan(1_500);
  });

  it('withdraws a run offered ahead when a reload disables its check, and a runner never gets it', async () => {
    service = await scheduled([{ id: 'd1', frequency: '4s' }]);
    const storage = service.storage;
    const real = storage.offerRun.bind(storage);
    const ahead: Array<{ id: string; dueAt: number }> = [];
    storage.offerRun = async (key, now, holder) => {
      const run = await real(key, now, holder);
      if (run && key.dueAt > Date.now()) ahead.push({ id: run.id, dueAt: key.dueAt });
      return run;
    };
    // The first run catches up at once; the next is offered about a second before it is due.
    await pollUntil(
      () => ahead.length > 0,
      10_000,
      () => 'no run of d1 was offered ahead',
    );
    const [run] = ahead;
    expect(run).toBeDefined();
    expect(run!.dueAt).toBeGreaterThan(Date.now());
    await service.reload(remoteConfig('http://127.0.0.1:9', [{ id: 'd1', frequency: '4s', enabled: false }]));
    expect(await storage.findRun(run!.id)).toBeNull();
    // Past its due time, a runner gets nothing of d1.
    const polls: Job[] = [];
    while (Date.now() < run!.dueAt + 1_500) polls.push(...(await claim(service.url)).jobs);
    expect(polls.filter((j) => Date.parse(j.dueAt) >= run!.dueAt)).toEqual([]);
  });

  it('claims again at once for a run that fell due while the poll was claiming', async () => {
    service = await scheduled([{ id: 'n1', frequency: '1h' }]);
    const storage = service.storage;
    const realOffer = storage.offerRun.bind(storage);
    const realClaim = storage.claimRuns.bind(storage);
    let offeredAt = 0;
    let offered: () => void = () => {};
    const offer = new Promise<void>((resolve) => (offered = resolve));
    storage.offerRun = async (key, now, holder) => {
      const run = await realOffer(key, now, holder);
      if (run) {
        offeredAt = Date.now();
        offered();
      }
      return run;
    };
    // The poll's first claim finds nothing, and its answer is held until the new check's first
    // run has been offered and its wake found no poll waiting (this one was still claiming).
    let held = false;
    storage.claimRuns = async (...args) => {
      const runs = await realClaim(...args);
      if (!held && runs.length === 0) {
        held = true;
        await offer;
        await new Promise((r) => setTimeout(r, 50));
      }
      return runs;
    };
    const polls: Array<{ at: number; jobs: Job[] }> = [];
    const until = Date.now() + 6_000;
    while (Date.now() < until && !polls.some((p) => p.jobs.length > 0)) polls.push(await claim(service.url));
    expect(held).toBe(true);
    expect(polls.at(-1)!.jobs).toHaveLength(1);
    // Claimed again at once, not left for the poll's next step (1 s) and gather.
    expect(polls.at(-1)!.at - offeredAt).toBeLessThan(900);
  });
});

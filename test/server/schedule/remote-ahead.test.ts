// A remote location's runs are offered shortly before they fall due, those of a
// moment together, and a runner gets each from its due time on (docs/runners.md): an
// offer made as each run fell due was a statement of its own (BENCHMARKS.md, "Claims and
// keys"). And a poll made just after a claim that took every run due waits before it
// claims (it found nothing nearly every time), and a run due while a poll was claiming,
// whose wake found no one waiting, is claimed at once.
// Against the real service, its queue and a long-polling runner over HTTP, on the fake
// clock: the service's waits, wakes and gathers are the clock's timers, so every instant
// below is the clock's and exact.
import { afterEach, describe, expect, it } from 'vitest';
import { CLAIM_GATHER_MS } from '../../../src/server/schedule/runner-hub.js';
import type { ClaimedRun, RunKey } from '../../../src/server/storage/types.js';
import { advanceUntil, createFakeClock } from '../../helpers/fake-clock.js';
import { claimJobs, remoteConfig, type RunnerJob } from '../../helpers/runner.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

interface Poll {
  /** When the runner sent it. */
  from: number;
  /** How many claims the service had made by then: the index of this poll's first. */
  claimsBefore: number;
  /** When its answer came. */
  at: number;
  jobs: RunnerJob[];
}

/**
 * The service with these remote checks (at "far", a runner's location), its scheduler
 * running on a fake clock, with what a test needs to move that clock only when the
 * service has done all it can: no storage call out, and no runner's poll on its way
 * to the service or back.
 */
async function scheduled(checks: Parameters<typeof remoteConfig>[1]) {
  const clock = createFakeClock();
  let out = 0;
  // A poll sent, or a claim's answer on its way back: in flight until the service waits on a timer again.
  let travelling = false;
  const setTimer = clock.setTimeout;
  clock.setTimeout = (fn, ms) => {
    if (out === 0) travelling = false;
    return setTimer(fn, ms);
  };
  service = await startTestService({
    config: remoteConfig('http://127.0.0.1:9', checks),
    startScheduler: true,
    clock,
  });
  const s = service;
  /** Every offer made, when, and (once answered) the run it created, or null. */
  const offers: Array<{ at: number; key: RunKey; run?: ClaimedRun | null }> = [];
  /** Every claim made, in the order made: when, and (once answered) the runs it took. */
  const claims: Array<{ at: number; runs: ClaimedRun[] }> = [];
  const offerRun = s.storage.offerRun.bind(s.storage);
  s.storage.offerRun = async (key, now, holder) => {
    const offer: (typeof offers)[number] = { at: clock.now(), key };
    offers.push(offer);
    out++;
    try {
      offer.run = await offerRun(key, now, holder);
      return offer.run;
    } finally {
      out--;
    }
  };
  /** Runs while a claim is made, before it answers; none by default. */
  let beforeAnswer: (runs: ClaimedRun[]) => Promise<void> = async () => {};
  const claimRuns = s.storage.claimRuns.bind(s.storage);
  s.storage.claimRuns = async (...args) => {
    const claim: (typeof claims)[number] = { at: clock.now(), runs: [] };
    claims.push(claim);
    out++;
    try {
      const runs = await claimRuns(...args);
      claim.runs = runs;
      await beforeAnswer(runs).catch((error: unknown) => console.error(error));
      return runs;
    } finally {
      out--;
      travelling = true; // the poll answers, or waits on a timer (which says so)
    }
  };

  /** One long poll of a runner of "far". */
  async function claim(): Promise<Poll> {
    const from = clock.now();
    const claimsBefore = claims.length;
    travelling = true;
    const jobs = await claimJobs(s.url, { runnerId: 'ahead-test', max: 100, waitSeconds: 5 });
    travelling = false;
    return { from, claimsBefore, at: clock.now(), jobs };
  }

  /** Polls one after another while `more` holds, the clock moving meanwhile; gives every poll. */
  async function pollWhile(more: (polls: Poll[]) => boolean): Promise<Poll[]> {
    const polls: Poll[] = [];
    let done = false;
    const runner = (async () => {
      try {
        while (more(polls)) polls.push(await claim());
      } finally {
        done = true;
      }
    })();
    await Promise.all([runner, moveUntil(() => done)]);
    return polls;
  }

  /** Moves the clock 10 ms at a time until `done`, each step once the service is at rest. */
  const moveUntil = (done: () => boolean) =>
    advanceUntil(clock, done, { idle: () => out === 0 && !travelling, stepMs: 10, withinMs: 30_000 });

  return {
    service: s,
    clock,
    offers,
    claims,
    pollWhile,
    moveUntil,
    /** Storage calls out now. */
    outNow: () => out,
    holdClaims(fn: typeof beforeAnswer) {
      beforeAnswer = fn;
    },
  };
}

/** How late a run's wake, or a poll's arrival, may come here: for the test of a poll's first claim. */
const WAKE_LATE_MS = 25;

/** The runs the service gave a runner, with when each was claimed. */
const given = (claims: Array<{ at: number; runs: ClaimedRun[] }>) =>
  claims.flatMap((c) => c.runs.map((run) => ({ at: c.at, dueAt: run.dueAt })));

describe('remote runs offered ahead', () => {
  it('are offered before they fall due, several in one turn, and claimed only from their due time', async () => {
    const checks = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, frequency: '4s' }));
    const { clock, offers, claims, pollWhile } = await scheduled(checks);
    const until = clock.now() + 9_000;
    const polls = await pollWhile(() => clock.now() < until);

    // The first turn of each check catches up (due in the past, offered at once): the ones after it.
    const onGrid = offers[0]!.at + 4_000;
    const made = offers.filter((o) => o.key.dueAt > onGrid);
    expect(made.length).toBeGreaterThanOrEqual(12);
    for (const o of made) {
      // Ahead of its due time, by at most the second (and the 250 ms gather) it is offered ahead.
      expect(o.key.dueAt - o.at).toBeGreaterThan(0);
      expect(o.key.dueAt - o.at).toBeLessThanOrEqual(1_100);
    }
    // Offers of a moment go together: fewer instants than offers.
    expect(new Set(made.map((o) => o.at)).size).toBeLessThan(made.length);

    // Every run was given at or after its due time, and soon after it (woken at due, gathering 250 ms).
    const late = given(claims).filter((g) => g.dueAt > onGrid);
    expect(late.length).toBeGreaterThanOrEqual(12);
    for (const g of late) {
      expect(g.at).toBeGreaterThanOrEqual(g.dueAt);
      expect(g.at - g.dueAt).toBeLessThan(1_500);
    }
    // And the runner got each of them.
    const got = polls.flatMap((p) => p.jobs.map((j) => Date.parse(j.dueAt))).filter((d) => d > onGrid);
    expect(got.length).toBe(late.length);
  });

  it('waits before the first claim of a poll that follows one that took every run due', async () => {
    const checks = Array.from({ length: 3 }, (_, i) => ({ id: `w${i}`, frequency: '2s' }));
    const { clock, claims, pollWhile } = await scheduled(checks);
    const until = clock.now() + 7_000;
    const polls = await pollWhile(() => clock.now() < until);

    // A poll right after one that was given runs (all it wanted: fewer than its 100) looks
    // at the queue only when woken for the next run, after a gather, or at the poll step;
    // unless a run's wake came after the last claim and found no poll waiting: then it
    // claims at once, as the last test shows. That is a run due between the last claim and
    // the poll reaching the service, or one due just as that claim was made.
    const due = polls.flatMap((p) => p.jobs.map((j) => Date.parse(j.dueAt)));
    const missedBefore = (p: Poll) => {
      const lastClaim = claims[p.claimsBefore - 1]!.at;
      return due.some((d) => d >= lastClaim - WAKE_LATE_MS && d <= p.from + WAKE_LATE_MS);
    };
    const after = polls.filter((p, i) => i > 0 && polls[i - 1]!.jobs.length > 0 && !missedBefore(p));
    expect(after.length).toBeGreaterThanOrEqual(4);
    for (const p of after)
      expect(claims[p.claimsBefore]!.at - p.from).toBeGreaterThanOrEqual(CLAIM_GATHER_MS - 5);
    // Each run still reaches the runner soon after it falls due (after each check's first, caught up at the start).
    const onGrid = polls[0]!.from + 2_000;
    const late = given(claims).filter((g) => g.dueAt > onGrid);
    expect(late.length).toBeGreaterThanOrEqual(6);
    for (const g of late) expect(g.at - g.dueAt).toBeLessThan(1_500);
  });

  it('withdraws a run offered ahead when a reload disables its check, and a runner never gets it', async () => {
    const { service, clock, offers, moveUntil, pollWhile } = await scheduled([{ id: 'd1', frequency: '4s' }]);
    // The first run catches up at once; the next is offered about a second before it is due.
    const ahead = () => offers.filter((o) => o.run && o.key.dueAt > o.at);
    await moveUntil(() => ahead().length > 0);
    const { run } = ahead()[0]!;
    const { dueAt } = run!;
    expect(dueAt).toBeGreaterThan(clock.now());
    await service.reload(remoteConfig('http://127.0.0.1:9', [{ id: 'd1', frequency: '4s', enabled: false }]));
    expect(await service.storage.findRun(run!.id)).toBeNull();
    // Past its due time, a runner gets nothing of d1.
    const polls = await pollWhile(() => clock.now() < dueAt + 1_500);
    expect(polls.flatMap((p) => p.jobs).filter((j) => Date.parse(j.dueAt) >= dueAt)).toEqual([]);
  });

  it('claims again at once for a run that fell due while the poll was claiming', async () => {
    const { clock, offers, claims, pollWhile, holdClaims, outNow } = await scheduled([
      { id: 'n1', frequency: '1h' },
    ]);
    // The poll's first claim finds nothing, and its answer is held until the new check's first
    // run has been offered and its wake found no poll waiting (this one was still claiming).
    let held = false;
    holdClaims(async (runs) => {
      if (held || runs.length > 0) return;
      held = true;
      // The clock's driver waits for this claim: the clock is moved here until the offer is made.
      await advanceUntil(clock, () => offers[0]?.run !== undefined, {
        idle: () => outNow() === 1,
        withinMs: 5_000,
      });
      await clock.settle();
    });
    const until = clock.now() + 6_000;
    const polls = await pollWhile((polls) => clock.now() < until && !polls.some((p) => p.jobs.length > 0));
    expect(held).toBe(true);
    expect(polls.at(-1)!.jobs).toHaveLength(1);
    // Claimed again at once, not left for the poll's next step (1 s) and gather.
    const claimed = claims.find((c) => c.runs.length > 0)!;
    expect(claimed.at - offers[0]!.at).toBeLessThan(900);
  });
});

// The /metrics snapshot is built ahead of the scrapes that read it (snapshot.ts), on
// a clock the test moves: once a scope's interval is known, no scrape waits for a
// build and none finds a snapshot 15 s old; a build is made once per scrape at 15 s
// and 60 s intervals; a late scrape still finds one young; a scope no scrape read for
// WATCH_MS is no longer built; a failed build is not kept but made again.
import { describe, expect, it } from 'vitest';
import { createSnapshots, REFRESH_MS, SNAPSHOT_MS, WATCH_MS } from '../../../src/server/metrics/snapshot.js';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock.js';

/** A scope whose builds are counted, each snapshot the clock's time when it was built. */
function scope(clock: FakeClock) {
  const lines: string[] = [];
  const snapshots = createSnapshots<number>(clock, (line) => lines.push(line));
  let builds = 0;
  let failNext = false;
  const build = () => {
    builds++;
    if (failNext) {
      failNext = false;
      return Promise.reject(new Error('the thread is gone'));
    }
    return Promise.resolve(clock.now());
  };
  /** A scrape: the snapshot's age, and whether it was built in the request. */
  const scrape = async () => {
    const before = builds;
    const at = await snapshots.read('acct', build);
    return { age: clock.now() - at, inRequest: builds > before };
  };
  return {
    snapshots,
    scrape,
    lines,
    builds: () => builds,
    failNextBuild: () => void (failNext = true),
  };
}

describe('the /metrics snapshot, built ahead', () => {
  it.each([15_000, 30_000, 60_000])(
    'at a %i ms interval, after two scrapes, each finds one built ahead, under 15 s old, one build each',
    async (interval) => {
      const clock = createFakeClock();
      const s = scope(clock);
      const seen = [];
      let told = 0;
      for (let i = 0; i < 12; i++) {
        seen.push(await s.scrape());
        // Until the second scrape tells the interval, the snapshot is kept fresh every REFRESH_MS.
        if (i === 1) told = s.builds();
        await clock.advance(interval);
      }
      const after = seen.slice(2);
      expect(after.every((x) => !x.inRequest)).toBe(true);
      expect(Math.max(...after.map((x) => x.age))).toBeLessThan(SNAPSHOT_MS);
      // Some REFRESH_MS before each scrape, never a second one.
      expect(after.every((x) => x.age <= REFRESH_MS + 1_000)).toBe(true);
      // One for each scrape after, and one for the scrape due after the last.
      expect(s.builds() - told).toBe(after.length + 1);
      s.snapshots.stop();
    },
  );

  it('at a 5 s interval builds every 5 to 10 s, not at each scrape', async () => {
    const clock = createFakeClock();
    const s = scope(clock);
    const seen = [];
    for (let i = 0; i < 24; i++) {
      seen.push(await s.scrape());
      await clock.advance(5_000);
    }
    expect(seen.slice(2).every((x) => !x.inRequest && x.age < SNAPSHOT_MS)).toBe(true);
    // 2 minutes of scrapes: at most one build per 5 s.
    expect(s.builds()).toBeLessThanOrEqual(24 + 1);
    expect(s.builds()).toBeGreaterThanOrEqual(12);
    s.snapshots.stop();
  });

  it('keeps the snapshot young while a scrape is late, and lets a scope go after WATCH_MS', async () => {
    const clock = createFakeClock();
    const s = scope(clock);
    await s.scrape();
    await clock.advance(15_000);
    await s.scrape();
    // The next one comes 45 s late: still a snapshot built ahead, under 15 s old.
    await clock.advance(60_000);
    const late = await s.scrape();
    expect(late.inRequest).toBe(false);
    expect(late.age).toBeLessThan(SNAPSHOT_MS);
    // No scrape for longer than WATCH_MS: building stops, and the next scrape builds in its request.
    await clock.advance(WATCH_MS + 30_000);
    const builds = s.builds();
    await clock.advance(60_000);
    expect(s.builds()).toBe(builds);
    const back = await s.scrape();
    expect(back).toEqual({ age: 0, inRequest: true });
    s.snapshots.stop();
  });

  it('does not keep a failed build: the log says so, and it is built again', async () => {
    const clock = createFakeClock();
    const s = scope(clock);
    // Built in the request and failed: the scrape fails, the next builds again.
    s.failNextBuild();
    await expect(s.scrape()).rejects.toThrow('the thread is gone');
    expect(await s.scrape()).toEqual({ age: 0, inRequest: true });
    await clock.advance(15_000);
    await s.scrape();
    // Built ahead and failed: logged, and built again at the next look, before the scrape.
    s.failNextBuild();
    const builds = s.builds();
    await clock.advance(15_000);
    expect(s.lines.join('\n')).toContain('building the /metrics snapshot ahead failed: the thread is gone');
    expect(s.builds()).toBe(builds + 2);
    const next = await s.scrape();
    expect(next.inRequest).toBe(false);
    expect(next.age).toBeLessThan(SNAPSHOT_MS);
    s.snapshots.stop();
  });

  it('shares one build between scrapes that arrive while it is made', async () => {
    const clock = createFakeClock();
    const snapshots = createSnapshots<number>(clock, () => undefined);
    let builds = 0;
    let finish!: (value: number) => void;
    const build = () => {
      builds++;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const [a, b] = [snapshots.read('acct', build), snapshots.read('acct', build)];
    finish(7);
    expect(await Promise.all([a, b])).toEqual([7, 7]);
    expect(builds).toBe(1);
    snapshots.stop();
  });
});

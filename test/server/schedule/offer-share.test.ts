// Instances on one PostgreSQL database share the offering of remote runs (issue 12):
// each slot's owner among the instances connected offers its runs as they fall due,
// the others only LATE_OFFER_MS later (a no-op while the owner is there), so a run
// costs one prompt offer, not one per instance; and when an instance goes, the runs
// of its slots are still offered (late at first), none missing.
import { afterEach, describe, expect, it } from 'vitest';
import { nextDueAt, ownerOf, planSlots } from '../../../src/server/schedule/plan.js';
import type { RunKey } from '../../../src/server/storage/types.js';
import { advanceBy, createFakeClock, type FakeClock } from '../../helpers/fake-clock.js';
import { testPostgres } from '../../helpers/postgres.js';
import { remoteConfig, until } from '../../helpers/runner.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const pg = testPostgres();
let services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
});

interface Offered {
  by: string;
  key: RunKey;
  at: number;
  created: boolean;
}

/**
 * Every offer the service's scheduler makes from now on, at the clock's time, with whether
 * it created the run; `out` counts the offers and reads of the instances not yet answered
 * (a read still out when the clock moves on would leave the instance offering late what
 * it now owns, past the test's window: CI's slower database once did).
 */
function recordOffers(
  s: TestService,
  name: string,
  clock: FakeClock,
  into: Offered[],
  out: { offers: number },
) {
  const offer = s.storage.offerRun.bind(s.storage);
  const instances = s.storage.instances.bind(s.storage);
  s.storage.instances = async () => {
    out.offers++;
    try {
      return await instances();
    } finally {
      out.offers--;
    }
  };
  s.storage.offerRun = async (key, now, claim) => {
    const at = clock.now();
    out.offers++;
    try {
      const run = await offer(key, now, claim);
      into.push({ by: name, key, at, created: run !== null });
      return run;
    } finally {
      out.offers--;
    }
  };
}

const keyOf = (k: Pick<RunKey, 'checkId' | 'dueAt'>) => `${k.checkId}@${k.dueAt}`;

describe('remote runs offered by several instances', () => {
  it(
    'are offered at once by their slot’s owner alone, and still every one when an instance goes',
    { timeout: 90_000 },
    async () => {
      const url = await pg.freshDatabase();
      const config = remoteConfig(
        'http://127.0.0.1:9',
        Array.from({ length: 12 }, (_, i) => ({ id: `c${i + 1}`, frequency: '2s' })),
      );
      // Both instances on one fake clock, moved a step at a time once every offer made is answered.
      const clock = createFakeClock();
      const [a, b] = [
        await startTestService({ config, dbPath: url, startScheduler: true, clock }),
        await startTestService({ config, dbPath: url, startScheduler: true, clock }),
      ];
      services = [a, b];
      const offers: Offered[] = [];
      const out = { offers: 0 };
      recordOffers(a, 'a', clock, offers, out);
      recordOffers(b, 'b', clock, offers, out);
      const wait = (ms: number) => advanceBy(clock, ms, { idle: () => out.offers === 0 });
      const ids = { a: (await a.storage.instances()).self, b: (await b.storage.instances()).self };
      const all = [ids.a, ids.b].sort();
      expect((await a.storage.instances()).all).toEqual(all);
      expect((await b.storage.instances()).all).toEqual(all);

      // Both instances have read each other (every 2 s) by then; the window's runs are offered
      // late by the non-owner by its end (3 s, flushed every second).
      const from = clock.now() + 3_000;
      const to = from + 6_000;
      await wait(to - clock.now() + 5_000);
      const slots = planSlots(config);
      const grid = (start: number, end: number) =>
        slots.flatMap((slot) => {
          const due: number[] = [];
          for (let t = nextDueAt(start, slot.periodMs, slot.offsetMs); t < end; t += slot.periodMs)
            due.push(t);
          return due.map((dueAt) => ({ checkId: slot.check.id, dueAt, owner: ownerOf(slot.key, all) }));
        });
      const shared = grid(from, to);
      expect(shared.length).toBeGreaterThanOrEqual(30);
      const ownerName = (owner: string | undefined) => (owner === ids.a ? 'a' : 'b');
      const owned = new Set(shared.map((run) => ownerName(run.owner)));
      expect(owned).toEqual(new Set(['a', 'b'])); // each instance has a share
      for (const run of shared) {
        const its = offers.filter((o) => keyOf(o.key) === keyOf(run));
        const first = its.find((o) => o.created);
        expect(first, `${keyOf(run)} was never created`).toBeDefined();
        expect(first!.by).toBe(ownerName(run.owner));
        expect(first!.at - run.dueAt).toBeLessThan(1_000);
        // The other instance offered it too, late, and found it there.
        const other = its.filter((o) => o.by !== first!.by);
        expect(other.map((o) => o.created)).toEqual([false]);
        expect(other[0]!.at - run.dueAt).toBeGreaterThanOrEqual(3_000);
      }

      // Instance a goes: b offers a's slots late until it reads that a is gone, then at once;
      // every run due meanwhile is offered, none missing. A run due just after a went may have
      // been offered by a before it went, or while it was closing (the clock stands still
      // then, so such an offer reads the very time a went): offers come up to a quarter
      // period ahead.
      await a.close();
      services = [b];
      const goneAt = clock.now();
      await until(
        async () => (await b.storage.instances()).all.length === 1,
        10_000,
        () => 'b still sees a',
      );
      const after = clock.now() + 3_000;
      await wait(after - clock.now() + 4_000);
      for (const run of grid(goneAt, after + 2_000)) {
        const first = offers.find((o) => keyOf(o.key) === keyOf(run) && o.created);
        expect(first, `${keyOf(run)} was never created after a went`).toBeDefined();
        if (first!.by === 'a') expect(first!.at).toBeLessThanOrEqual(goneAt);
        else expect(first!.by).toBe('b');
        if (run.dueAt >= after) expect(first!.at - run.dueAt).toBeLessThan(1_000);
      }
    },
  );
});

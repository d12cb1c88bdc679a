// Which waiting runner a due run wakes (runner-hub.ts): one, the longest waiting,
// and none more while that one gathers the runs due before its claim; and when a
// poll may wait before its first claim.
import { describe, expect, it } from 'vitest';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { CLAIM_GATHER_MS, createRunnerHub } from '../../../src/server/schedule/runner-hub.js';

function hubAt(clock: { now: number }) {
  return createRunnerHub({
    config: ServiceConfigSchema.parse({ accounts: [] }),
    queue: { recordRunnerSeen: () => Promise.resolve(), runnersSeen: () => Promise.resolve([]) },
    now: () => clock.now,
    onReturn: () => {},
  });
}

describe('runner hub', () => {
  it('counts each location’s runners in touch since a time: its own contacts and the other instances’', async () => {
    const clock = { now: 1_000_000 };
    const hub = createRunnerHub({
      config: ServiceConfigSchema.parse({ accounts: [] }),
      queue: {
        recordRunnerSeen: () => Promise.resolve(),
        runnersSeen: () =>
          Promise.resolve([
            { accountId: 'a', locationId: 'far', runnerId: 'r2', lastSeenAt: 999_000 },
            // Another instance saw r1 earlier than this one did: the newer contact stands.
            { accountId: 'a', locationId: 'far', runnerId: 'r1', lastSeenAt: 900_000 },
            { accountId: 'a', locationId: 'far', runnerId: 'r3', lastSeenAt: 100_000 },
          ]),
      },
      now: () => clock.now,
      onReturn: () => {},
    });
    hub.seen('a', 'far', 'r1');
    await hub.refresh();
    expect(hub.runnersSince('a', 'far', 950_000)).toBe(2);
    expect(hub.runnersSince('a', 'far', 0)).toBe(3);
    expect(hub.runnersSince('a', 'far', 1_000_001)).toBe(0);
    expect(hub.runnersSince('a', 'near', 0)).toBe(0);
  });

  it('lets a poll wait before its first claim only just after a claim took every run then due', () => {
    const clock = { now: 1_000_000 };
    const hub = hubAt(clock);
    // No claim yet: the first look claims.
    expect(hub.mayWaitFirst('a', 'far')).toBe(false);
    hub.drained('a', 'far', clock.now);
    expect(hub.mayWaitFirst('a', 'far')).toBe(true);
    // Per location.
    expect(hub.mayWaitFirst('a', 'near')).toBe(false);
    // A run due here with no runner waiting to be woken: the next poll claims at once.
    clock.now += 10;
    hub.wake('a', 'far');
    expect(hub.mayWaitFirst('a', 'far')).toBe(false);
    // A claim made after that wake took its run.
    clock.now += 1;
    hub.drained('a', 'far', clock.now);
    expect(hub.mayWaitFirst('a', 'far')).toBe(true);
    // An older claim's answer coming back late does not move the mark back.
    hub.drained('a', 'far', clock.now - 20);
    expect(hub.mayWaitFirst('a', 'far')).toBe(true);
    // Other instances' runs may have fallen due since: after a gather, the first look claims.
    clock.now += CLAIM_GATHER_MS;
    expect(hub.mayWaitFirst('a', 'far')).toBe(false);
  });

  it('tells a poll that a run fell due while it was not waiting (a wake that found no one)', () => {
    const clock = { now: 1_000_000 };
    const hub = hubAt(clock);
    const looked = hub.missedMark('a', 'far');
    expect(hub.missedSince('a', 'far', looked)).toBe(false);
    hub.wake('a', 'far'); // the poll is claiming: no one waits
    expect(hub.missedSince('a', 'far', looked)).toBe(true);
    expect(hub.missedSince('a', 'near', hub.missedMark('a', 'near'))).toBe(false);
    // Its next claim, made after that wake, took the run: in the very same millisecond too
    // (runs due on a quarter-second grid fall due in the millisecond a poll claims).
    expect(hub.missedSince('a', 'far', hub.missedMark('a', 'far'))).toBe(false);
  });

  it('wakes one waiting runner per gather, the longest waiting first', async () => {
    const clock = { now: 1_000_000 };
    const hub = hubAt(clock);
    const never = new AbortController().signal;
    const woken: string[] = [];
    const waitAs = (name: string, location = 'far') =>
      void hub.wait('a', location, 60_000, never).then(() => woken.push(name));
    waitAs('first');
    waitAs('second');
    waitAs('third');
    waitAs('elsewhere', 'near');
    const settle = () => new Promise((r) => setImmediate(r));

    hub.wake('a', 'far');
    await settle();
    expect(woken).toEqual(['first']);
    // Runs due while the first gathers go in its claim: nobody else is woken for them.
    clock.now += CLAIM_GATHER_MS - 1;
    hub.wake('a', 'far');
    await settle();
    expect(woken).toEqual(['first']);
    // Another location's runners are woken apart.
    hub.wake('a', 'near');
    await settle();
    expect(woken).toEqual(['first', 'elsewhere']);
    // Its gather over, the next run due wakes the next runner.
    clock.now += 1;
    hub.wake('a', 'far');
    await settle();
    expect(woken).toEqual(['first', 'elsewhere', 'second']);
    // With no one waiting, a wake is a no-op that holds nobody back.
    clock.now += CLAIM_GATHER_MS;
    hub.wake('a', 'near');
    waitAs('late', 'near');
    hub.wake('a', 'near');
    await settle();
    expect(woken).toEqual(['first', 'elsewhere', 'second', 'late']);
  });
});

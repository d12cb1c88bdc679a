// Which waiting runner a due run wakes (runner-hub.ts): one, the longest waiting,
// and none more while that one gathers the runs due before its claim.
import { describe, expect, it } from 'vitest';
import { ServiceConfigSchema } from '../../src/server/config-schema.js';
import { CLAIM_GATHER_MS, createRunnerHub } from '../../src/server/runner-hub.js';

describe('runner hub', () => {
  it('wakes one waiting runner per gather, the longest waiting first', async () => {
    let now = 1_000_000;
    const hub = createRunnerHub({
      config: ServiceConfigSchema.parse({ accounts: [] }),
      queue: { recordRunnerSeen: () => Promise.resolve(), runnersSeen: () => Promise.resolve([]) },
      now: () => now,
      onReturn: () => {},
    });
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
    now += CLAIM_GATHER_MS - 1;
    hub.wake('a', 'far');
    await settle();
    expect(woken).toEqual(['first']);
    // Another location's runners are woken apart.
    hub.wake('a', 'near');
    await settle();
    expect(woken).toEqual(['first', 'elsewhere']);
    // Its gather over, the next run due wakes the next runner.
    now += 1;
    hub.wake('a', 'far');
    await settle();
    expect(woken).toEqual(['first', 'elsewhere', 'second']);
    // With no one waiting, a wake is a no-op that holds nobody back.
    now += CLAIM_GATHER_MS;
    hub.wake('a', 'near');
    waitAs('late', 'near');
    hub.wake('a', 'near');
    await settle();
    expect(woken).toEqual(['first', 'elsewhere', 'second', 'late']);
  });
});

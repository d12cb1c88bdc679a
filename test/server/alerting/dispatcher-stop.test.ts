// A stop lets the messages under way finish for a grace (alerting/dispatcher.ts,
// STOP_GRACE_MS), so a restart does not send them again, and claims nothing new meanwhile;
// what is still under way after it is cut and due again at the next start, never lost.
import { afterEach, describe, expect, it } from 'vitest';
import { STOP_GRACE_MS } from '../../../src/server/alerting/dispatcher.js';
import type { SendOutcome } from '../../../src/server/alerting/senders/types.js';
import { dispatcherOnFakeClock } from '../../helpers/dispatcher.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

/**
 * A receiver that answers `ms` after it is sent to (on the fake clock), or when the send
 * is cut; `cuts` holds the instants sends were cut at.
 */
async function setUp(ms: number, outcome: SendOutcome = { ok: true }) {
  const cuts: number[] = [];
  const t = await dispatcherOnFakeClock(
    (signal, clock) =>
      new Promise<SendOutcome>((resolve) => {
        let answered = false;
        clock.setTimeout(() => {
          answered = true;
          resolve(outcome);
        }, ms);
        signal.addEventListener('abort', () => {
          if (answered) return;
          cuts.push(clock.now());
          resolve({ ok: false, permanent: false, error: `aborted: ${String(signal.reason)}` });
        });
      }),
  );
  opened.push(t);
  return { ...t, cuts };
}

describe('a stop', () => {
  it('lets a page under way finish and records it sent, so no restart sends it again', async () => {
    const t = await setUp(1_500);
    await t.enqueue('n1');
    t.dispatcher.start();
    await t.clock.advance(0);
    expect(t.sent).toHaveLength(1);

    let stopped = false;
    const stopping = t.dispatcher.stop().then(() => (stopped = true));
    // A page queued during the grace is left for the next start.
    await t.enqueue('n2');
    t.dispatcher.kick();
    await t.clock.advance(1_000);
    expect(stopped).toBe(false);
    await t.clock.advance(500);
    await stopping;

    expect(t.sent).toHaveLength(1);
    expect(await t.storage.notification('n1')).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await t.storage.notification('n2')).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('cuts a page still under way after the grace, at its end: due again at once', async () => {
    const t = await setUp(60_000);
    await t.enqueue('n1');
    t.dispatcher.start();
    await t.clock.advance(0);
    const t0 = t.clock.now();
    const stopping = t.dispatcher.stop();
    await t.clock.advance(STOP_GRACE_MS - 1);
    expect(t.cuts).toEqual([]);
    await t.clock.advance(1);
    await stopping;

    expect(t.cuts).toEqual([t0 + STOP_GRACE_MS]);
    const row = await t.storage.notification('n1');
    expect(row).toMatchObject({ status: 'pending', nextAttemptAt: t.clock.now() });
    expect(row?.lastError).toContain('the service is stopping');
  });

  it('sets no retry timer for an attempt that failed in the grace', async () => {
    const t = await setUp(100, { ok: false, permanent: false, error: 'HTTP 503' });
    await t.enqueue('n1');
    t.dispatcher.start();
    await t.clock.advance(0);
    const stopping = t.dispatcher.stop();
    await t.clock.advance(100);
    await stopping;

    // Recorded as any failed attempt (counted, due again after a backoff), nothing left waiting.
    const row = await t.storage.notification('n1');
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 503' });
    expect(row!.nextAttemptAt).toBeGreaterThan(t.clock.now());
    expect(t.cuts).toEqual([]);
    expect(t.clock.pending()).toBe(0);
  });

  it('waits for a claim that hangs no longer than the grace', async () => {
    const t = await setUp(0);
    t.holdClaims(new Promise<void>(() => undefined));
    t.dispatcher.start();
    await t.clock.advance(0);
    expect(t.claims()).toBe(1);
    let stopped = false;
    const stopping = t.dispatcher.stop().then(() => (stopped = true));
    await t.clock.advance(STOP_GRACE_MS - 1);
    expect(stopped).toBe(false);
    await t.clock.advance(1);
    await stopping;
    expect(stopped).toBe(true);
  });
});

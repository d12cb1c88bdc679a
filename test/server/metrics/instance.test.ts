// The default process families keep an event-loop delay monitor ticking on the main
// thread: at prom-client's default tick (10 ms) it was most of an idle service's CPU, so
// instance.ts ticks it every EVENT_LOOP_TICK_MS. Each value is an interval between two
// ticks, so the shortest one seen is at least the tick (at 10 ms it would read 0.01 s).
import { expect, it } from 'vitest';
import { createInstanceMetrics, EVENT_LOOP_TICK_MS } from '../../../src/server/metrics/instance.js';

/** The value of one sample line of the text exposition, by its family name. */
const sample = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

it('ticks the event-loop delay monitor every EVENT_LOOP_TICK_MS, not every 10 ms', async () => {
  const { registry } = createInstanceMetrics();
  let min = Number.NaN;
  // Each scrape resets the monitor; an empty one reads a huge minimum, so poll until two ticks landed.
  await expect
    .poll(
      async () => {
        min = sample(await registry.metrics(), 'nodejs_eventloop_lag_min_seconds');
        return min < 3600;
      },
      { interval: 3 * EVENT_LOOP_TICK_MS, timeout: 20_000 },
    )
    .toBe(true);
  expect(EVENT_LOOP_TICK_MS).toBeGreaterThanOrEqual(100);
  expect(min).toBeGreaterThanOrEqual((0.9 * EVENT_LOOP_TICK_MS) / 1000);
});

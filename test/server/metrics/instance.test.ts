// The default process families, and the event-loop delay measured at the service's own
// timers (metrics/loop-delay.ts) instead of prom-client's monitor, a timer that woke the
// main thread 10 times a second.
import { collectDefaultMetrics, Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { systemClock } from '../../../src/domain/clock.js';
import { createInstanceMetrics } from '../../../src/server/metrics/instance.js';

/** The value of one sample line of the text exposition, by its family name. */
const sample = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
const DELAY = ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'].map(
  (k) => `nodejs_eventloop_lag_${k}_seconds`,
);

const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

function metrics() {
  const made = createInstanceMetrics();
  closers.push(made.close);
  return made;
}

/** A timer of the system clock due in `ms`, fired while the thread is busy for `busyMs`. */
async function lateTimer(ms: number, busyMs: number): Promise<void> {
  const fired = new Promise<void>((resolve) => systemClock.setTimeout(resolve, ms));
  const until = performance.now() + busyMs;
  while (performance.now() < until); // the loop blocked: the timer cannot fire on time
  await fired;
}

it("has every one of prom-client's default families, its event-loop delay ones included", async () => {
  const theirs = new Registry();
  collectDefaultMetrics({ register: theirs, eventLoopMonitoringPrecision: 1000 });
  const names = async (r: Registry) => (await r.getMetricsAsJSON()).map((m) => m.name);
  const ours = new Set(await names(metrics().registry));
  const defaults = await names(theirs);
  expect(defaults).toEqual(expect.arrayContaining(DELAY));
  expect(defaults.filter((name) => !ours.has(name))).toEqual([]);
});

it('reads how late the thread ran its timers since the last scrape, and 0 when none fired', async () => {
  const { registry } = metrics();
  await registry.metrics(); // what came before this test is not read below
  await lateTimer(5, 200);
  const text = await registry.metrics();
  expect(sample(text, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(0.15);
  expect(sample(text, 'nodejs_eventloop_lag_max_seconds')).toBeLessThan(5);
  const after = await registry.metrics();
  for (const name of DELAY) expect(sample(after, name)).toBe(0);
});

it('reads a timer that fired on time as no delay', async () => {
  const { registry } = metrics();
  await registry.metrics();
  await new Promise<void>((resolve) => systemClock.setTimeout(resolve, 20));
  const text = await registry.metrics();
  // Seen (a delay of 0 is kept as a nanosecond), and a free loop runs a timer within a few milliseconds.
  expect(sample(text, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThan(0);
  expect(sample(text, 'nodejs_eventloop_lag_min_seconds')).toBeLessThan(0.05);
});

it('stops measuring when the service closes', async () => {
  const { registry, close } = metrics();
  close();
  await lateTimer(5, 100);
  expect(sample(await registry.metrics(), 'nodejs_eventloop_lag_max_seconds')).toBe(0);
});

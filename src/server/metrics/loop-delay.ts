// The event-loop delay families of /metrics (`nodejs_eventloop_lag_{min,max,mean,stddev,p50,p90,
// p99}_seconds`, prom-client's names), measured at the timers the main thread already has: each
// timer of the system clock says how late it fired after its due time (domain/clock.ts), and the
// families are those delays since the last scrape. A healthy loop reads 0; a loop blocked for a
// second reads about a second at the next timer.
//
// prom-client measures them with a monitor of its own, a timer that woke the main thread 10
// times a second (at 100 ms; 100 at its default 10 ms), each wake-up a cost an idle service
// paid for nothing else, and its values were the intervals between its ticks, so an idle loop
// read 0.1 s. The service's timers fire at least 4 times a second (the status warmer's quarter
// seconds, server/status/warmer.ts) and at every slot due; a stall longer than a quarter second
// is seen by the timer it held up. What a timer-less stretch of a stall shorter than that hides
// is what prom-client's 100 ms tick hid too.
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';
import { onTimerLateness } from '../../domain/clock.js';

/** The families, as prom-client names and aggregates them, and what each reads of the delays (ns). */
const FAMILIES: ReadonlyArray<
  readonly [string, string, 'min' | 'max' | 'average', (delays: RecordableHistogram) => number]
> = [
  ['min', 'The minimum recorded event loop delay.', 'min', (d) => d.min],
  ['max', 'The maximum recorded event loop delay.', 'max', (d) => d.max],
  ['mean', 'The mean of the recorded event loop delays.', 'average', (d) => d.mean],
  ['stddev', 'The standard deviation of the recorded event loop delays.', 'average', (d) => d.stddev],
  ['p50', 'The 50th percentile of the recorded event loop delays.', 'average', (d) => d.percentile(50)],
  ['p90', 'The 90th percentile of the recorded event loop delays.', 'average', (d) => d.percentile(90)],
  ['p99', 'The 99th percentile of the recorded event loop delays.', 'average', (d) => d.percentile(99)],
];

/** Registers the families on `registry`; the returned function stops listening (the service's close). */
export function registerLoopDelay(registry: Registry): () => void {
  const delays = createHistogram();
  // The histogram counts whole nanoseconds from 1 up.
  const stop = onTimerLateness((ms) => delays.record(Math.max(1, Math.round(ms * 1e6))));
  // One family, registered first as the scrape reads them in order, reads the histogram for all
  // of them at each scrape, and starts it afresh.
  new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    aggregator: 'average',
    collect() {
      // What prom-client's own family measures: how long a callback queued now waits.
      const start = performance.now();
      setImmediate(() => this.set((performance.now() - start) / 1000));
      // No timer fired since the last scrape (a fake clock, a very short gap): no delay seen.
      const seen = delays.count > 0;
      for (const { gauge, read } of families) gauge.set(seen ? read(delays) / 1e9 : 0);
      delays.reset();
    },
  });
  const families = FAMILIES.map(([key, help, aggregator, read]) => ({
    gauge: new Gauge({
      name: `nodejs_eventloop_lag_${key}_seconds`,
      help,
      registers: [registry],
      aggregator,
    }),
    read,
  }));
  return stop;
}

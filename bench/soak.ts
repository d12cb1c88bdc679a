// Refresh soaks in this process: the real store and App, Ink drawing into a
// fake terminal. Each cycle hands applyStatuses the whole list, as a poll does,
// with a few checks changed, moves the clock on, and waits for Ink's frame.
// Heap is read after a full GC at regular points, so its slope shows a leak.
import type { CheckStatus, StatusSummary } from '../src/api/schemas/index.js';
import type { ConsoleStore } from '../src/store/create-store.js';
import type { Harness } from '../test/helpers/ink-screen.js';

export interface SoakResult {
  cycles: number;
  seconds: number;
  msPerCycle: number;
  heapBefore: number;
  heapAfter: number;
  /** Least-squares slope of the heap samples, bytes per 1,000 cycles. */
  slopePer1000: number;
  /** The same over the second half only: a leak keeps its slope, a cache filling up does not. */
  lateSlopePer1000: number;
  rssBefore: number;
  rssAfter: number;
  bytesPerCycle: number;
}

export interface SoakOptions {
  store: ConsoleStore;
  harness: Harness;
  statuses: readonly CheckStatus[];
  summary: StatusSummary | null;
  cycles: number;
  /** Extra work per cycle (e.g. cycling the wall's pages by the clock). */
  stepMs?: number;
  /** How many checks come back as fresh, equal objects each cycle (as parsed from the wire). */
  freshPerCycle?: number;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

function heapNow(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A copy of check `c` whose last run is newer and, every tenth time, whose status flips. */
function changed(c: CheckStatus, cycle: number, now: number): CheckStatus {
  const flip = cycle % 10 === 0;
  return {
    ...c,
    status: flip ? (c.status === 'failing' ? 'passing' : 'failing') : c.status,
    lastExecution: {
      timestamp: new Date(now).toISOString(),
      status: 'success',
      responseTime: 100 + (cycle % 50),
      location: c.locations[0]?.id ?? 'eu-west',
    },
    performance: { ...c.performance, averageResponseTime: 100 + (cycle % 50) },
  };
}

export async function soak(opts: SoakOptions): Promise<SoakResult> {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error('run with node --expose-gc');
  const { store, harness, summary, cycles } = opts;
  const fresh = opts.freshPerCycle ?? 100;
  const step = opts.stepMs ?? 1_000;
  const list = [...opts.statuses];
  const n = list.length;
  // The worst first: where the board and the wall show them.
  const onScreen = list
    .map((c, i) => [c, i] as const)
    .filter(([c]) => c.status === 'failing')
    .slice(0, 20)
    .map(([, i]) => i);
  if (onScreen.length === 0) onScreen.push(0);
  // The checks that change elsewhere come from a fixed set of 500, which the warm-up goes
  // through once: a changed status is a slightly bigger object than a parsed one, and
  // changing a new check every refresh would grow the heap until every check had been
  // replaced once (bounded, but it reads as a slope).
  const spread = Array.from({ length: Math.min(n, 500) }, (_, k) => Math.floor((k * n) / Math.min(n, 500)));
  let now = Date.now();
  // `held` is what the store holds: equal statuses keep their old objects there, so the
  // fresh copies of a cycle are compared and dropped, and only changed checks replace them.
  const held = list;
  const cycle = async (i: number) => {
    now += step;
    const next = held.slice();
    for (let k = 0; k < fresh; k++) {
      const at = (i * fresh + k) % n;
      next[at] = structuredClone(held[at]!);
    }
    // One check somewhere in the list, and one on screen (so every cycle draws a frame).
    for (const at of [spread[(i * 7919) % spread.length]!, onScreen[i % onScreen.length]!]) {
      held[at] = changed(held[at]!, i, now);
      next[at] = held[at];
    }
    await harness.frame(() => {
      store.getState().tick(now);
      store.getState().applyStatuses(next, summary, now);
    });
  };
  const warmup = spread.length * 2;
  for (let i = 0; i < warmup; i++) await cycle(i);
  const samples: Array<[number, number]> = [];
  const heapBefore = heapNow();
  const rssBefore = process.memoryUsage().rss;
  const bytes0 = harness.bytes();
  const every = Math.max(1, Math.floor(cycles / 20));
  const t0 = performance.now();
  let spent = 0; // the cycles' own time, without the GCs of the heap samples
  for (let i = 0; i < cycles; i++) {
    const t = performance.now();
    await cycle(warmup + i);
    spent += performance.now() - t;
    if ((i + 1) % every === 0) samples.push([i + 1, heapNow()]);
  }
  const seconds = (performance.now() - t0) / 1_000;
  const heapAfter = heapNow();
  return {
    cycles,
    seconds,
    msPerCycle: spent / cycles,
    heapBefore,
    heapAfter,
    slopePer1000: slope(samples) * 1_000,
    lateSlopePer1000: slope(samples.slice(Math.floor(samples.length / 2))) * 1_000,
    rssBefore,
    rssAfter: process.memoryUsage().rss,
    bytesPerCycle: (harness.bytes() - bytes0) / cycles,
  };
}

function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

// bench:wall — the wall as it runs for days: thousands of refreshes of the
// store and the wall view, drawn by Ink into a 200x60 terminal in this process,
// with statuses changing and the pages cycling; heap (after a full GC) and RSS
// before and after, bytes written per refresh and per clock tick between them.
import os from 'node:os';
import type { CheckStatus } from '../src/api/schemas/index.js';
import { sampleStatus, sampleSummary } from '../test/helpers/samples.js';
import { fmt, quantiles, writeSection } from './report.js';
import { kb, mb, soak } from './soak.js';

const CHECKS = Number(process.env['BENCH_CHECKS'] ?? 1_000);
const REFRESHES = Number(process.env['BENCH_REFRESHES'] ?? 5_000);
const COLS = 200;
const ROWS = 60;
const REFRESH_MS = 10_000;
const CYCLE_MS = 8_000;
const TICKS = 60;
const LOCATIONS = [
  { id: 'eu-west', name: 'Frankfurt' },
  { id: 'us-east', name: 'Virginia' },
  { id: 'ap-south', name: 'Singapore' },
];

/** 6 % failing (more than one page at 200x60), 2 % degraded, 1 % unknown. */
function fleet(now: number): CheckStatus[] {
  return Array.from({ length: CHECKS }, (_, i) => {
    const r = i % 100;
    const status = r < 6 ? 'failing' : r < 8 ? 'degraded' : r === 8 ? 'unknown' : 'passing';
    return sampleStatus(`w${i}`, {
      checkName: `Service ${String(i).padStart(4, '0')}`,
      status,
      locations: LOCATIONS.map((l, k) => ({
        ...l,
        status:
          status === 'failing' && k < 2
            ? 'failing'
            : status === 'degraded' && k === 0
              ? 'degraded'
              : 'passing',
        lastSuccess: new Date(now - (i % 50) * 60_000).toISOString(),
      })),
    });
  });
}

async function main() {
  process.env['NODE_ENV'] = 'production'; // React's production build, as bin/checkwall.js has it
  delete process.env['CI'];
  delete process.env['CONTINUOUS_INTEGRATION'];
  const [{ createConsoleStore }, { drawInProcess }] = await Promise.all([
    import('../src/store/create-store.js'),
    import('../test/helpers/ink-screen.js'),
  ]);
  const now = Date.now();
  const statuses = fleet(now);
  const summary = sampleSummary({ totalChecks: CHECKS });
  const store = createConsoleStore(
    { label: 'bench', host: '127.0.0.1', wallCycleMs: CYCLE_MS },
    { name: 'wall', scope: null },
  );
  store.getState().setSize(COLS, ROWS);
  store.getState().connected(now);
  const harness = drawInProcess(store, COLS, ROWS);
  await harness.frame(() => store.getState().applyStatuses(statuses, summary, now));
  const result = await soak({
    store,
    harness,
    statuses,
    summary,
    cycles: REFRESHES,
    stepMs: REFRESH_MS,
    freshPerCycle: 10,
  });
  // Between two refreshes: the clock ticks every second and nothing else happens.
  const at = store.getState().now;
  const ticks: number[] = [];
  for (let i = 1; i <= TICKS; i++) {
    const before = harness.bytes();
    await harness.frame(() => store.getState().tick(at + i * 1_000));
    ticks.push(harness.bytes() - before);
  }
  const tick = quantiles(ticks);
  const mean = ticks.reduce((a, b) => a + b, 0) / TICKS;
  harness.unmount();
  writeSection(
    'bench:wall',
    `The wall view (\`checkwall wall\`) with ${CHECKS.toLocaleString('en')} checks (6 % failing, so more than one page at ${COLS}x${ROWS}),
its real store and App drawn by Ink into a ${COLS}x${ROWS} fake terminal in the bench's process, through the
console's screen writer. Each refresh hands \`applyStatuses\` every status (10 of them fresh equal objects, two
changed (one on screen, one from a fixed 500), a status flip every tenth refresh, so checks turn failing and
recover; a 1,000-refresh warm-up first) and moves the clock on 10 s, so
the pages (8 s cycle) turn as they do on a wall. Load average ${os.loadavg()[0]!.toFixed(1)} when the bench started.

| measure | figure |
|---|---|
| refreshes | ${result.cycles.toLocaleString('en')} in ${result.seconds.toFixed(0)} s (${fmt(result.msPerCycle)} each) |
| heap after a full GC | ${mb(result.heapBefore)} before, ${mb(result.heapAfter)} after |
| heap slope | ${kb(result.slopePer1000)} per 1,000 refreshes (least squares over 20 samples); second half ${kb(result.lateSlopePer1000)} |
| RSS | ${mb(result.rssBefore)} before, ${mb(result.rssAfter)} after |
| bytes written per refresh | ${kb(result.bytesPerCycle)} |
| bytes written per clock tick between refreshes | median ${tick.p50} B (the clock's line), mean ${mean.toFixed(0)} B over ${TICKS} ticks with the pages turning every 8 s, max ${kb(tick.max)} |`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

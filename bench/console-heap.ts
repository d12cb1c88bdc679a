// bench:console, the soak: the board's store and App under 10,000 refreshes of
// 10,000 checks (heap before/after and its slope), and what one poll's worth of
// fresh objects costs applyStatuses. It runs in a process of its own (started by
// bench/console.ts with the statuses in a file), so the service and the pty
// reader of the bench's process are not in the heap it measures, and it can
// share the machine's time with the idle window of the real program.
import { readFileSync } from 'node:fs';
import type { CheckStatus, StatusSummary } from '../src/api/schemas/index.js';
import { quantiles } from './report.js';
import type { SoakResult } from './soak.js';

export interface HeapFigures extends SoakResult {
  /** applyStatuses with every check a fresh object (as parsed from a poll), none changed: p50 ms. */
  applyFreshMs: number;
  /** The same with one check changed (a new object whose last run moved on): p50 ms. */
  applyOneChangedMs: number;
}

export interface HeapInput {
  checks: CheckStatus[];
  summary: StatusSummary | null;
  cycles: number;
  cols: number;
  rows: number;
}

async function heapSoak({ checks: statuses, summary, cycles, cols, rows }: HeapInput): Promise<HeapFigures> {
  // React's production build, as bin/checkwall.js has it, before anything loads React.
  process.env['NODE_ENV'] = 'production';
  delete process.env['CI'];
  delete process.env['CONTINUOUS_INTEGRATION'];
  const [{ createConsoleStore }, { drawInProcess }, { soak }] = await Promise.all([
    import('../src/store/create-store.js'),
    import('../test/helpers/ink-screen.js'),
    import('./soak.js'),
  ]);
  const store = createConsoleStore({ label: 'bench', host: '127.0.0.1' });
  store.getState().setSize(cols, rows);
  const harness = drawInProcess(store, cols, rows);
  await harness.frame(() => store.getState().applyStatuses([...statuses], summary, Date.now()));
  const fresh: number[] = [];
  const oneChanged: number[] = [];
  for (let i = 0; i < 10; i++) {
    const copy = structuredClone(statuses);
    let t = performance.now();
    store.getState().applyStatuses(copy, summary, Date.now());
    fresh.push(performance.now() - t);
    const again = structuredClone(statuses);
    const c = again[i]!;
    again[i] = { ...c, performance: { ...c.performance, averageResponseTime: 1 + i } };
    t = performance.now();
    store.getState().applyStatuses(again, summary, Date.now());
    oneChanged.push(performance.now() - t);
  }
  await harness.frame(() => store.getState().applyStatuses([...statuses], summary, Date.now()));
  const result = await soak({ store, harness, statuses, summary, cycles });
  harness.unmount();
  return { ...result, applyFreshMs: quantiles(fresh).p50, applyOneChangedMs: quantiles(oneChanged).p50 };
}

const input = process.argv[2];
if (input) {
  heapSoak(JSON.parse(readFileSync(input, 'utf8')) as HeapInput)
    .then((figures) => process.stdout.write(`${JSON.stringify(figures)}\n`))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}

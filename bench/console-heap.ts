// bench:console, the in-process part: the board's store and App under 10,000
// refreshes of 10,000 checks (heap before/after and its slope), and what one
// poll's worth of fresh objects costs applyStatuses. Loaded after NODE_ENV is set.
import type { CheckStatus, StatusSummary } from '../src/api/schemas.js';
import { createConsoleStore } from '../src/store/create-store.js';
import { drawInProcess } from '../test/helpers/ink-screen.js';
import { quantiles } from './report.js';
import { soak, type SoakResult } from './soak.js';

export interface HeapFigures extends SoakResult {
  /** applyStatuses with every check a fresh object (as parsed from a poll), none changed: p50 ms. */
  applyFreshMs: number;
  /** The same with one check changed (a new object whose last run moved on): p50 ms. */
  applyOneChangedMs: number;
}

export async function heapSoak(
  statuses: readonly CheckStatus[],
  summary: StatusSummary | null,
  cycles: number,
  cols: number,
  rows: number,
): Promise<HeapFigures> {
  const store = createConsoleStore({ label: 'bench', host: '127.0.0.1' }, 'board');
  store.getState().setSize(cols, rows);
  const harness = drawInProcess(store, cols, rows);
  await harness.frame(() => store.getState().applyStatuses([...statuses], summary, Date.now()));
  const fresh: number[] = [];
  const oneChanged: number[] = [];
  for (let i = 0; i < 15; i++) {
    const copy = structuredClone(statuses) as CheckStatus[];
    let t = performance.now();
    store.getState().applyStatuses(copy, summary, Date.now());
    fresh.push(performance.now() - t);
    const again = structuredClone(statuses) as CheckStatus[];
    const c = again[i]!;
    again[i] = { ...c, performance: { ...c.performance, averageResponseTime: 1 + i } };
    t = performance.now();
    store.getState().applyStatuses(again, summary, Date.now());
    oneChanged.push(performance.now() - t);
  }
  await harness.frame(() => store.getState().applyStatuses([...statuses], summary, Date.now()));
  const result = await soak({ store, harness, statuses, summary, cycles });
  harness.unmount();
  return {
    ...result,
    applyFreshMs: quantiles(fresh).p50,
    applyOneChangedMs: quantiles(oneChanged).p50,
  };
}

// The runs of a check's window (the last 24 h for the list's statuses), kept by
// status/inputs.ts: every run while there are at most EXACT_RUNS, so the figures
// are exact at any moment, or else the counts as read plus each run stored since.
import type { WindowStats } from '../storage/types.js';

/** A window of at most this many runs is kept run by run: its figures are exact. */
export const EXACT_RUNS = 256;
/**
 * The same for a check under a maintenance window that excludes its runs from the
 * availability (docs/maintenance.md): a check every minute at two locations makes 2,880 runs a
 * day, each of which must be told inside or outside the window.
 */
export const EXCLUDING_RUNS = 20_000;

export interface Run {
  startedAt: number;
  ok: boolean;
  responseTime: number | null;
}

/** The runs of [now - span, now]: every one (`runs`), or counts as read plus the runs stored since. */
export interface Window {
  span: number;
  runs?: Run[] | undefined;
  /** Runs kept run by run at most (EXACT_RUNS when absent). */
  keepUpTo?: number | undefined;
  total: number;
  successes: number;
  timed: number;
  sum: number;
  p95: number | null;
}

/** Counts a stored run in the window at `now`: one before its start or after now is not in it. */
export function addRun(w: Window, run: Run, now: number) {
  if (run.startedAt < now - w.span || run.startedAt > now) return;
  if (!w.runs) {
    w.total++;
    if (run.ok) w.successes++;
    if (run.responseTime !== null) {
      w.timed++;
      w.sum += run.responseTime;
    }
    return;
  }
  const runs = w.runs;
  let i = runs.length;
  while (i > 0 && runs[i - 1]!.startedAt > run.startedAt) i--;
  runs.splice(i, 0, run);
  // Runs past the start are dropped: the window stays bounded between reads.
  const from = now - w.span;
  const gone = runs.findIndex((r) => r.startedAt >= from);
  runs.splice(0, gone === -1 ? runs.length : gone);
  if (runs.length > (w.keepUpTo ?? EXACT_RUNS)) {
    // Too many to keep: counts from now on, exact at this moment.
    Object.assign(w, counted(runs), { runs: undefined });
    return;
  }
  Object.assign(w, counted(runs));
}

/** Counts of the runs in [from, to]; the p95 is the nearest rank, as storage computes it. */
export function counted(
  runs: readonly Run[],
  from = Number.NEGATIVE_INFINITY,
  to = Number.POSITIVE_INFINITY,
) {
  let total = 0;
  let successes = 0;
  let sum = 0;
  const times: number[] = [];
  for (const r of runs) {
    if (r.startedAt < from || r.startedAt > to) continue;
    total++;
    if (r.ok) successes++;
    if (r.responseTime !== null) {
      times.push(r.responseTime);
      sum += r.responseTime;
    }
  }
  times.sort((x, y) => x - y);
  const p95 = times.length === 0 ? null : times[Math.max(0, Math.ceil(0.95 * times.length) - 1)]!;
  return { total, successes, timed: times.length, sum, p95 };
}

/**
 * When the figures of a window kept run by run next move with time alone: its oldest
 * run leaves it, or a run stored ahead of `now` (a runner's clock) enters it. Infinity
 * for a window kept as counts, which moves only with runs stored and reads.
 */
export function windowMovesAt(w: Window, now: number): number {
  if (!w.runs) return Infinity;
  // Oldest first: the first run in the window is the next to leave it.
  const first = w.runs.find((r) => r.startedAt >= now - w.span);
  const leaves = first && first.startedAt <= now ? first.startedAt + w.span + 1 : Infinity;
  const enters = w.runs.find((r) => r.startedAt > now)?.startedAt ?? Infinity;
  return Math.min(leaves, enters);
}

/** The window's figures at `now`: exact when kept run by run. */
export function windowFigures(w: Window, now: number): WindowStats {
  const c = w.runs ? counted(w.runs, now - w.span, now) : w;
  return {
    total: c.total,
    successes: c.successes,
    timed: c.timed,
    averageResponseTime: c.timed === 0 ? null : c.sum / c.timed,
    p95ResponseTime: c.p95,
  };
}

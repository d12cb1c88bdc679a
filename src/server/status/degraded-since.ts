// Since when a check has been degraded (DECISION, docs/decisions.md): the moment
// a derivation first found it degraded, kept by the status engine while it stays
// degraded. A slow run is a success, so its last success says nothing of this.
// Where the engine has not judged the check before (a start, a reload), the
// verdict's own runs are the best witness: the oldest judged run of a location
// in trouble (at most JUDGED_RUNS back, so "at least since").
import type { CheckStatus } from '../../api/schemas/index.js';
import type { StatusInputs } from './inputs.js';

/**
 * What the engine remembers of a check between derivations: undefined when it has
 * not judged it yet, null when it was not degraded, else since when (epoch ms).
 */
export type DegradedMemory = number | null | undefined;

export function degradedSince(
  before: DegradedMemory,
  status: CheckStatus,
  inputs: Pick<StatusInputs, 'recent'>,
  now: number,
): number | null {
  if (status.status !== 'degraded') return null;
  if (typeof before === 'number') return before;
  if (before === null) return now;
  return oldestJudged(status, inputs) ?? now;
}

function oldestJudged(status: CheckStatus, inputs: Pick<StatusInputs, 'recent'>): number | null {
  const troubled = status.locations.flatMap((l, i) =>
    l.status === 'degraded' || l.status === 'failing' ? [i] : [],
  );
  const from = troubled.length > 0 ? troubled : status.locations.map((_, i) => i);
  const starts = from.flatMap((i) => (inputs.recent[i] ?? []).map((r) => r.startedAt));
  return starts.length > 0 ? Math.min(...starts) : null;
}

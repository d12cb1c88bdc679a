// The timing waterfall: each phase of a run as a bar offset by the phases
// before it and scaled to the run's total.
import type { Timing } from '../api/schemas.js';

export const PHASES = ['dns', 'tcp', 'tls', 'firstByte', 'download'] as const;
export type Phase = (typeof PHASES)[number];

export const PHASE_LABELS: Record<Phase, string> = {
  dns: 'DNS',
  tcp: 'TCP connect',
  tls: 'TLS handshake',
  firstByte: 'First byte',
  download: 'Download',
};

export interface Segment {
  phase: Phase;
  ms: number;
  offset: number; // columns before the bar
  width: number; // columns of the bar, at least 1 when ms > 0
}

export function waterfall(timing: Timing, columns: number): Segment[] {
  const total = Math.max(
    1,
    timing.total,
    PHASES.reduce((n, p) => n + (timing[p] ?? 0), 0),
  );
  let elapsed = 0;
  const out: Segment[] = [];
  for (const phase of PHASES) {
    const ms = timing[phase];
    if (ms === undefined) continue; // a phase the run never had (tls on plain HTTP) is not drawn
    const offset = Math.min(columns - 1, Math.floor((elapsed / total) * columns));
    const width = ms > 0 ? Math.max(1, Math.min(columns - offset, Math.round((ms / total) * columns))) : 0;
    out.push({ phase, ms, offset, width });
    elapsed += ms;
  }
  return out;
}

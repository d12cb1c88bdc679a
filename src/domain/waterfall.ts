// The timing waterfall: each phase of a run as a bar offset by the phases
// before it and scaled to the run's total.
import type { Timing } from '../api/schemas/index.js';

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

/** The milliseconds of the phases a run has, summed. */
const phasesMs = (timing: Timing): number => PHASES.reduce((n, p) => n + (timing[p] ?? 0), 0);

export function waterfall(timing: Timing, columns: number): Segment[] {
  const total = Math.max(1, timing.total, phasesMs(timing));
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

/** Each phase and the total are rounded to the millisecond: a gap this small is that, not time. */
const ROUNDING_MS = 3;

/**
 * The part of a run's total outside its phases: the probe's own work around the request
 * (the phases hold the target's time only), or a browser's page after its document. 0
 * when it is within the rounding of the phases, and for a run with no phase at all (a
 * heartbeat's total is its job's run: nothing to add up).
 */
export function restOfRun(timing: Timing): number {
  if (!PHASES.some((p) => timing[p] !== undefined)) return 0;
  const rest = timing.total - phasesMs(timing);
  return rest >= ROUNDING_MS ? rest : 0;
}

export interface Stop {
  phase: Phase;
  /** Time spent in the phase before it failed: the run's total less the phases it finished. */
  ms: number;
  /** "refused", "timed out", "reset", "not found", "failed". */
  what: string;
}

interface RunShape {
  checkType: string;
  timing: Timing;
  request: { url: string };
  error?: { name: string } | undefined;
}

const STOP_WORDS: Record<string, string> = {
  ConnectionRefusedError: 'refused',
  ConnectionResetError: 'reset',
  TimeoutError: 'timed out',
  DNSError: 'not found',
};

/**
 * Where a run that ended in an error stopped: the first phase its kind of check
 * goes through that it did not finish. Null when it finished every phase (it
 * failed on its assertions) or its kind has no network phases (browser, heartbeat).
 */
export function stoppedAt(run: RunShape): Stop | null {
  if (!run.error) return null;
  const expected = phasesOf(run.checkType, run.request.url);
  const phase = expected.find((p) => run.timing[p] === undefined);
  if (!phase) return null;
  return {
    phase,
    ms: Math.max(0, run.timing.total - phasesMs(run.timing)),
    what: STOP_WORDS[run.error.name] ?? 'failed',
  };
}

function phasesOf(checkType: string, url: string): readonly Phase[] {
  if (checkType === 'tcp') return ['dns', 'tcp'];
  if (checkType !== 'api' && checkType !== 'url') return [];
  return url.startsWith('https:') ? PHASES : PHASES.filter((p) => p !== 'tls');
}

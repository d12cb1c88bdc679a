import { expect } from 'vitest';
import { TIMING_PHASES, type Timing, type TimingPhase } from '../../src/api/schemas/index.js';

/**
 * The phases of a run's timing agree with its total: every phase there is non-negative, the
 * phases the kind of request must have are there, and the phases, which follow one another
 * without overlap inside the run, add up to no more than the total. Each phase and the total
 * are rounded to whole milliseconds on their own (runners/result.ts `ms`, `finishResult`), so
 * the sum may exceed the rounded total by at most half a millisecond per phase plus half for
 * the total: that, and nothing more, is the tolerance.
 */
export function expectPhasesWithinTotal(timing: Timing, present: readonly TimingPhase[]): void {
  for (const phase of present) expect(timing[phase], phase).toBeTypeOf('number');
  const measured = TIMING_PHASES.filter((phase) => timing[phase] !== undefined);
  for (const phase of measured) expect(timing[phase], phase).toBeGreaterThanOrEqual(0);
  const sum = measured.reduce((total, phase) => total + timing[phase]!, 0);
  expect(sum).toBeLessThanOrEqual(timing.total + (measured.length + 1) / 2);
}

// A cron job's run time in the metric catalogue's heartbeat group: from its /start
// to its end, over the runs that sent a /start (a plain ping is no run to time).
import { describe, expect, it } from 'vitest';
import { metricValues } from '../../src/domain/metric-values.js';
import { sampleResult } from '../helpers/samples.js';

const run = (id: string, duration: number, startedAt: string | null) =>
  sampleResult(id, {
    checkType: 'heartbeat',
    duration,
    heartbeat: { end: 'exit', exitCode: 0, startedAt, rid: null },
  });

describe('run duration of a heartbeat check', () => {
  it('averages and takes the longest of the timed runs, in seconds', () => {
    const values = metricValues(
      [
        run('a', 60_000, '2026-11-28T03:00:00.000Z'),
        run('b', 180_000, '2026-11-29T03:00:00.000Z'),
        run('c', 0, null),
      ],
      undefined,
    );
    expect(values['averageRunDuration']).toBe(120);
    expect(values['longestRunDuration']).toBe(180);
  });

  it('is null when no run sent a /start', () => {
    const values = metricValues([run('a', 0, null)], undefined);
    expect(values['averageRunDuration']).toBeNull();
    expect(values['longestRunDuration']).toBeNull();
  });
});

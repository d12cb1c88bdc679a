// The occurrences of a maintenance window (issue 33): a daily window at 02:00 in
// Europe/Berlin across the 2027 changes, asserted as UTC instants; weekly days,
// `until` inclusive, an early end and one occurrence's changed end.
import { describe, expect, it } from 'vitest';
import { occurrenceAt, occurrencesBetween, type WindowTimes } from '../../src/domain/maintenance.js';

const at = (iso: string) => Date.parse(iso);
const spans = (w: WindowTimes, from: string, to: string) =>
  occurrencesBetween(w, at(from), at(to)).map(
    (o) => `${new Date(o.startsAt).toISOString()} ${new Date(o.endsAt).toISOString()}`,
  );

// 02:00 Berlin (CET, +01:00) on 2027-03-20, one hour.
const nightly: WindowTimes = {
  startsAt: at('2027-03-20T01:00:00Z'),
  endsAt: at('2027-03-20T02:00:00Z'),
  repeat: { frequency: 'daily', timezone: 'Europe/Berlin' },
  endedEarlyAt: null,
  occurrenceEnds: {},
};

describe('maintenance occurrences', () => {
  it('keep 02:00 Berlin across the March change (02:00 does not exist on the 28th: 03:00 CEST)', () => {
    expect(spans(nightly, '2027-03-26T12:00:00Z', '2027-03-29T12:00:00Z')).toEqual([
      '2027-03-27T01:00:00.000Z 2027-03-27T02:00:00.000Z', // 02:00 CET
      '2027-03-28T01:00:00.000Z 2027-03-28T02:00:00.000Z', // 03:00 CEST: moved forward by the gap
      '2027-03-29T00:00:00.000Z 2027-03-29T01:00:00.000Z', // 02:00 CEST
    ]);
  });

  it('keep 02:00 Berlin across the October change (02:00 twice on the 31st: the first, CEST)', () => {
    expect(spans(nightly, '2027-10-29T12:00:00Z', '2027-11-01T12:00:00Z')).toEqual([
      '2027-10-30T00:00:00.000Z 2027-10-30T01:00:00.000Z', // 02:00 CEST
      '2027-10-31T00:00:00.000Z 2027-10-31T01:00:00.000Z', // the first 02:00, CEST
      '2027-11-01T01:00:00.000Z 2027-11-01T02:00:00.000Z', // 02:00 CET
    ]);
  });

  it('derive the state from the clock: active, then the next occurrence scheduled, ended after until', () => {
    const w: WindowTimes = { ...nightly, repeat: { ...nightly.repeat!, until: '2027-03-29' } };
    expect(occurrenceAt(w, at('2027-03-28T01:30:00Z'))).toEqual({
      state: 'active',
      occurrence: { startsAt: at('2027-03-28T01:00:00Z'), endsAt: at('2027-03-28T02:00:00Z') },
    });
    expect(occurrenceAt(w, at('2027-03-28T02:00:00Z'))).toEqual({
      state: 'scheduled',
      occurrence: { startsAt: at('2027-03-29T00:00:00Z'), endsAt: at('2027-03-29T01:00:00Z') },
    });
    // until is inclusive: the 29th runs, nothing after it.
    expect(occurrenceAt(w, at('2027-03-29T01:00:00Z'))).toEqual({ state: 'ended', occurrence: null });
  });

  it('run a weekly window on its days only', () => {
    const w: WindowTimes = {
      ...nightly,
      repeat: { frequency: 'weekly', daysOfWeek: ['tue', 'sat'], timezone: 'Europe/Berlin' },
    };
    // 2027-03-20 is a Saturday; then Tuesday 23rd, Saturday 27th.
    expect(spans(w, '2027-03-19T00:00:00Z', '2027-03-28T00:00:00Z')).toEqual([
      '2027-03-20T01:00:00.000Z 2027-03-20T02:00:00.000Z',
      '2027-03-23T01:00:00.000Z 2027-03-23T02:00:00.000Z',
      '2027-03-27T01:00:00.000Z 2027-03-27T02:00:00.000Z',
    ]);
  });

  it('end one occurrence early or late without moving the series, and end the series for good', () => {
    const changed: WindowTimes = {
      ...nightly,
      occurrenceEnds: { [String(at('2027-03-27T01:00:00Z'))]: at('2027-03-27T01:10:00Z') },
    };
    expect(spans(changed, '2027-03-26T12:00:00Z', '2027-03-28T12:00:00Z')).toEqual([
      '2027-03-27T01:00:00.000Z 2027-03-27T01:10:00.000Z',
      '2027-03-28T01:00:00.000Z 2027-03-28T02:00:00.000Z',
    ]);
    const ended: WindowTimes = { ...nightly, endedEarlyAt: at('2027-03-27T01:30:00Z') };
    expect(spans(ended, '2027-03-26T12:00:00Z', '2027-04-10T00:00:00Z')).toEqual([
      '2027-03-27T01:00:00.000Z 2027-03-27T01:30:00.000Z',
    ]);
    expect(occurrenceAt(ended, at('2027-03-27T01:31:00Z')).state).toBe('ended');
  });
});

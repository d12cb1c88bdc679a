// How long a window lasts as typed: a duration, a local time of day, an ISO time;
// and the boundaries: now, the past, 7 days.
import { describe, expect, it } from 'vitest';
import { describeScope, MAX_WINDOW_MS, parseUntil } from '../../src/domain/maintenance-time.js';

const NOW = new Date(2026, 10, 27, 10, 0, 0).getTime(); // 10:00 local

describe('parseUntil', () => {
  it('reads the presets and other durations, keeping the duration to send', () => {
    expect(parseUntil('15m', NOW)).toEqual({ duration: '15m', endsAt: NOW + 15 * 60_000 });
    expect(parseUntil(' 4h ', NOW)).toEqual({ duration: '4h', endsAt: NOW + 4 * 3_600_000 });
    expect(parseUntil('7d', NOW)).toEqual({ duration: '7d', endsAt: NOW + MAX_WINDOW_MS });
    expect(parseUntil('8d', NOW)).toEqual({ error: expect.stringMatching(/within 7 days/) as unknown });
  });

  it('reads HH:MM as the next such local time: later today, else tomorrow', () => {
    expect(parseUntil('14:30', NOW)).toEqual({ endsAt: new Date(2026, 10, 27, 14, 30).getTime() });
    expect(parseUntil('9:15', NOW)).toEqual({ endsAt: new Date(2026, 10, 28, 9, 15).getTime() });
    expect(parseUntil('10:00', NOW)).toEqual({ endsAt: new Date(2026, 10, 28, 10, 0).getTime() });
  });

  it('reads an ISO time in the coming 7 days', () => {
    const at = new Date(NOW + 3_600_000).toISOString();
    expect(parseUntil(at, NOW)).toEqual({ endsAt: NOW + 3_600_000 });
    expect(parseUntil(new Date(NOW - 1).toISOString(), NOW)).toEqual({
      error: expect.stringMatching(/has passed/) as unknown,
    });
    expect(parseUntil(new Date(NOW + MAX_WINDOW_MS + 60_000).toISOString(), NOW)).toEqual({
      error: expect.stringMatching(/within 7 days/) as unknown,
    });
  });

  it('gives as its ISO example a time from now that it would take, not a fixed date', () => {
    const now = Date.parse('2027-03-04T09:10:00Z');
    const r = parseUntil('soon', now);
    expect('error' in r && r.error).toContain('an ISO time (2027-03-04T11:30Z)');
    expect(parseUntil('2027-03-04T11:30Z', now)).toEqual({ endsAt: Date.parse('2027-03-04T11:30Z') });
    expect('error' in parseUntil('soon', NOW) && parseUntil('soon', NOW)).not.toContain('2026-11-27T14:30Z');
  });

  it.each(['', 'soon', '25:00', '1.5h', '0m', '2026-13-45T99:99Z'])('says what is wrong with %j', (text) => {
    const r = parseUntil(text, NOW);
    expect('error' in r && r.error.length).toBeGreaterThan(10);
  });
});

describe('describeScope', () => {
  it('names one of a kind and counts several', () => {
    expect(describeScope({ checks: ['api'] })).toBe('check api');
    expect(describeScope({ checks: ['a', 'b'], groups: ['g'], tags: ['t1', 't2'] })).toBe(
      '2 checks, group g, 2 tags',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter, filterToQuery } from '../../src/domain/filter.js';
import { ageClock, formatAge, formatAgeStep, formatMs, formatPercent } from '../../src/domain/format.js';
import { compareChecks } from '../../src/domain/order.js';
import { displayWidth, fit, sanitize, sanitizeMultiline, truncate } from '../../src/domain/sanitize.js';
import { sampleStatus } from '../helpers/samples.js';

describe('sanitize', () => {
  it.each([
    ['\u001b[2J\u001b[Hwiped', 'wiped'],
    ['\u001b]0;pwned title\u0007name', 'name'],
    ['\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['red \u001b[31mtext\u001b[0m', 'red text'],
    ['bell\u0007 and nul\u0000', 'bell and nul'],
    ['c1 \u009b31m csi', 'c1  csi'],
    ['bidi \u202eevil', 'bidi evil'],
    // Invisible characters that make one name look like another.
    ['zero\u200bwidth\u200c non\u200djoiner', 'zerowidth nonjoiner'],
    ['marks \u200eltr \u200frtl \u061calm', 'marks ltr rtl alm'],
    ['embed \u202aa\u202bb\u202cc\u202dd', 'embed abcd'],
    ['isolates \u2066a\u2067b\u2068c\u2069', 'isolates abc'],
    ['tab\there\nnewline', 'tab here newline'],
  ])('%j becomes %j', (input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });

  it('keeps lines in multiline text', () => {
    expect(sanitizeMultiline('a\r\nb\t\u001b[1mc')).toBe('a\nb  c');
  });

  it('measures wide characters and emoji as two columns', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('🔥ok')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(truncate('日本語テキスト', 7)).toBe('日本語…');
    expect(displayWidth(fit('日本語テキスト', 8))).toBe(8);
    expect(fit('ab', 4, '…', 'right')).toBe('  ab');
  });
});

describe('format', () => {
  it('reads durations, ages and percentages', () => {
    expect(formatMs(183.4)).toBe('183 ms');
    expect(formatMs(1240)).toBe('1.24 s');
    expect(formatMs(null)).toBe('—');
    expect(formatAge(0, 5_000)).toBe('5s');
    expect(formatAge(0, 240_000)).toBe('4m');
    expect(formatAge(0, 3 * 86_400_000)).toBe('3d');
    expect(formatPercent(99.951)).toBe('99.95%');
    expect(formatPercent(100)).toBe('100%');
  });
});

describe('ages in steps', () => {
  it.each<[number | string | null, number, string]>([
    [0, 0, '<10s'],
    [0, 9_999, '<10s'],
    [0, 10_000, '10s'],
    [0, 19_999, '10s'],
    [0, 59_999, '50s'],
    [0, 60_000, '1m'],
    [0, 3_599_999, '59m'],
    [0, 3_600_000, '1h'],
    [0, 3 * 86_400_000, '3d'],
    [5_000, 0, '<10s'], // a timestamp ahead of the clock is "just now"
    ['1970-01-01T00:00:30.000Z', 60_000, '30s'],
    [null, 0, '—'],
    ['not a date', 0, '—'],
  ])('%j at %i reads %j', (from, now, text) => {
    expect(formatAgeStep(from, now)).toBe(text);
  });

  it('steps the clock by ten seconds', () => {
    expect([0, 9_999, 10_000, 25_500].map(ageClock)).toEqual([0, 0, 10_000, 20_000]);
  });
});

describe('filter tokens', () => {
  const api = sampleStatus('a', {
    checkName: 'Payments API',
    status: 'failing',
    tags: ['prod', 'money'],
    group: { id: 'commerce', name: 'Commerce' },
  });
  const tcp = sampleStatus('b', { checkName: 'Cache', checkType: 'tcp', tags: ['infra'] });
  const run = (text: string) =>
    [api, tcp].filter((c) => matchesFilter(c, parseFilter(text).filter)).map((c) => c.checkId);

  it.each([
    ['', ['a', 'b']],
    ['pay', ['a']],
    ['status:failing', ['a']],
    ['s:failing,passing', ['a', 'b']],
    ['type:tcp', ['b']],
    ['tag:money', ['a']],
    ['group:comm', ['a']],
    ['-tag:money', ['b']],
    ['location:frank', ['a', 'b']],
    ['incident:no', ['a', 'b']],
    ['pay tag:infra', []],
  ])('%j selects %j', (text, ids) => {
    expect(run(text)).toEqual(ids);
  });

  it('names what it does not understand and applies the rest', () => {
    const { filter, errors } = parseFilter('colour:red status:broken type:api');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('colour');
    expect(errors[1]).toContain('broken');
    expect(filter.terms).toHaveLength(1);
  });

  it('passes what the API can filter to the query', () => {
    expect(filterToQuery(parseFilter('status:failing type:api tag:x').filter)).toEqual({
      status: 'failing',
      checkType: 'api',
    });
  });
});

describe('order', () => {
  it('puts the worst first, then names, with no data last', () => {
    const checks = [
      sampleStatus('p', { checkName: 'b', status: 'passing' }),
      sampleStatus('u', { checkName: 'a', status: 'unknown' }),
      sampleStatus('f', { checkName: 'z', status: 'failing' }),
      sampleStatus('d', { checkName: 'y', status: 'degraded' }),
    ];
    expect([...checks].sort((a, b) => compareChecks(a, b, 'status')).map((c) => c.checkId)).toEqual([
      'f',
      'd',
      'u',
      'p',
    ]);
    const avail = [
      sampleStatus('x', { availability: { percentage: null, period: '24h' } }),
      sampleStatus('y', { availability: { percentage: 50, period: '24h' } }),
    ];
    expect(avail.sort((a, b) => compareChecks(a, b, 'availability', true)).map((c) => c.checkId)).toEqual([
      'y',
      'x',
    ]);
  });
});

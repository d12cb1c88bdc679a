// Certificate expiry (src/domain/certificate.ts) at its boundaries, and the
// console's certificateDaysRemaining value (src/domain/metric-values.ts).
import { describe, expect, it } from 'vitest';
import {
  certificateKey,
  DAY_MS,
  daysChangeAt,
  daysUntil,
  expiresAt,
  newlyCrossed,
  warningEnded,
} from '../../src/domain/certificate.js';
import { metricValues } from '../../src/domain/metric-values.js';
import { sampleResult } from '../helpers/samples.js';

const T = Date.parse('2026-11-27T12:00:00.000Z');

describe('days remaining', () => {
  it.each([
    [10 * DAY_MS, 10],
    [10 * DAY_MS - 1, 9],
    [1, 0],
    [0, 0],
    [-1, -1],
    [-DAY_MS, -1],
    [-DAY_MS - 1, -2],
  ])('%s ms before expiry is %s days', (left, days) => {
    expect(daysUntil(T + left, T)).toBe(days);
  });

  it('changes exactly when the next whole day has passed', () => {
    const at = T + 4.5 * DAY_MS;
    const next = daysChangeAt(at, T);
    expect(daysUntil(at, next - 1)).toBe(4);
    expect(daysUntil(at, next)).toBe(3);
  });
});

describe('thresholds', () => {
  it.each([
    [15, [], []],
    [14, [], []],
    [13, [], [14]],
    [4, [], [7, 14]],
    [4, [14], [7]],
    [0, [14, 7], [1]],
    [-3, [14, 7, 1], []],
  ])('%s days left, %j sent: %j newly crossed, lowest first', (days, sent, crossed) => {
    expect(newlyCrossed(days, [14, 7, 1], new Set(sent))).toEqual(crossed);
  });

  it('knows a certificate by its serial and the expiry that counts: a renewed intermediate is another', () => {
    const c = {
      serialNumber: '0A',
      subject: 'CN=a',
      validTo: '2026-12-30T00:00:00.000Z',
      chainValidTo: '2026-12-02T00:00:00.000Z',
    };
    expect(expiresAt(c)).toBe(Date.parse('2026-12-02T00:00:00.000Z'));
    expect(certificateKey(c)).toBe('0A@2026-12-02T00:00:00.000Z');
    expect(certificateKey({ ...c, chainValidTo: '2027-06-01T00:00:00.000Z' })).toBe(
      '0A@2026-12-30T00:00:00.000Z',
    );
    expect(certificateKey({ ...c, serialNumber: null, chainValidTo: null })).toBe(
      'CN=a@2026-12-30T00:00:00.000Z',
    );
  });
});

describe("a warning's end", () => {
  const at = (days: number, serialNumber = 'OLD') => ({
    serialNumber,
    subject: 'CN=a',
    validTo: new Date(T + days * DAY_MS).toISOString(),
    chainValidTo: null,
  });
  it.each([
    ['both locations renewed', true, [at(90, 'NEW'), at(90, 'NEW')]],
    ['one location still serving the old certificate', false, [at(90, 'NEW'), at(6)]],
    ['the old certificate at 14 days left, the threshold not crossed', true, [at(90, 'NEW'), at(14)]],
    ['the old certificate just under 14 days left', false, [at(90, 'NEW'), at(14 - 1 / DAY_MS)]],
    ['the only location that showed one renewed', true, [at(90, 'NEW')]],
    ['an expired certificate at one location', false, [at(90, 'NEW'), at(-2)]],
  ])('%s: ended %s', (_what, ended, newest) => {
    expect(warningEnded(newest, [14, 7, 1], T)).toBe(ended);
  });

  it('goes by the thresholds set now: a certificate outside all of them, or none set, ends it', () => {
    expect(warningEnded([at(6)], [14, 7, 1], T)).toBe(false);
    expect(warningEnded([at(6)], [3, 1], T)).toBe(true);
    expect(warningEnded([at(6)], [], T)).toBe(true);
  });
});

describe('certificateDaysRemaining in the console', () => {
  const cert = (days: number, chain: number | null) => ({
    subject: 'CN=a',
    issuer: 'CN=b',
    serialNumber: null,
    validFrom: '2026-01-01T00:00:00.000Z',
    validTo: '2027-01-01T00:00:00.000Z',
    daysRemaining: days,
    chainValidTo: null,
    chainDaysRemaining: chain,
  });
  it("is the newest run's earliest expiry, and null without a certificate", () => {
    const older = sampleResult('r1', { startedAt: '2026-11-27T10:00:00.000Z', certificate: cert(3, 2) });
    const newer = sampleResult('r2', { startedAt: '2026-11-27T11:00:00.000Z', certificate: cert(40, 20) });
    const none = sampleResult('r3', { startedAt: '2026-11-27T12:00:00.000Z' });
    expect(metricValues([older, newer, none], undefined)['certificateDaysRemaining']).toBe(20);
    expect(metricValues([none], undefined)['certificateDaysRemaining']).toBeNull();
  });
});

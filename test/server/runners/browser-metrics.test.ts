// The pure CLS and timing arithmetic over what the page measured.
import { describe, expect, it } from 'vitest';
import {
  cumulativeLayoutShift,
  navigationPhases,
  sampleMetrics,
  type NavigationEntry,
} from '../../../src/server/runners/browser-metrics.js';

describe('cumulative layout shift', () => {
  it.each([
    ['no shifts', [], 0],
    ['one shift', [[100, 0.1, false]], 0.1],
    ['shifts after input do not count', [[100, 0.3, true]], 0],
    [
      'one window sums shifts under 1 s apart',
      [
        [100, 0.1, false],
        [900, 0.05, false],
      ],
      0.15,
    ],
    [
      'a 1 s gap starts a new window; the largest wins',
      [
        [100, 0.1, false],
        [1100, 0.05, false],
      ],
      0.1,
    ],
    [
      'a window ends after 5 s',
      Array.from({ length: 7 }, (_, i) => [i * 900, 0.01, false] as [number, number, boolean]),
      0.06,
    ],
  ] as const)('%s', (_name, shifts, expected) => {
    expect(cumulativeLayoutShift(shifts as Array<[number, number, boolean]>)).toBeCloseTo(expected, 10);
  });
});

const NAV: NavigationEntry = {
  domainLookupStart: 1,
  domainLookupEnd: 3,
  connectStart: 3,
  secureConnectionStart: 5,
  connectEnd: 12,
  requestStart: 12.4,
  responseStart: 212.6,
  responseEnd: 230,
  domContentLoadedEventEnd: 300,
  encodedBodySize: 10,
};

describe('timing phases and metrics from what the page measured', () => {
  it('splits tls from tcp over https, and leaves tls out over http', () => {
    expect(navigationPhases(NAV, true)).toEqual({ dns: 2, tcp: 2, tls: 7, firstByte: 200, download: 17 });
    const plain = { ...NAV, secureConnectionStart: 0 };
    expect(navigationPhases(plain, false)).toEqual({ dns: 2, tcp: 9, firstByte: 200, download: 17 });
  });

  it('reports the catalogue units, and leaves out what the page never produced', () => {
    const sample = { nav: NAV, fcp: 123.4, lcp: 456.7, shifts: [], fid: null, text: '' };
    expect(sampleMetrics(sample)).toEqual({
      firstContentfulPaint: 0.123,
      largestContentfulPaint: 0.457,
      cumulativeLayoutShift: 0,
      timeToInteractive: 0.3,
    });
    expect(sampleMetrics({ ...sample, fid: 2.6, fcp: 400 })).toMatchObject({
      firstInputDelay: 3,
      timeToInteractive: 0.4,
    });
    expect(sampleMetrics({ ...sample, nav: null, fcp: null, lcp: null })).toEqual({});
  });
});

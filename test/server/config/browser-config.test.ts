// The config of browser and multistep checks: steps validated at load with
// messages that name the field, and the pure CLS and timing arithmetic.
import { describe, expect, it } from 'vitest';
import { ConfigError, validateConfig } from '../../../src/server/config/load.js';
import {
  cumulativeLayoutShift,
  navigationPhases,
  sampleMetrics,
  type NavigationEntry,
} from '../../../src/server/runners/browser-metrics.js';
import { describeStep } from '../../../src/server/runners/browser-steps.js';

const withCheck = (check: Record<string, unknown>) => ({
  accounts: [
    {
      id: '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b',
      apiKeys: ['k'.repeat(16)],
      locations: [{ id: 'eu', name: 'EU', region: 'eu-1' }],
      checks: [
        {
          id: 'j',
          name: 'Journey',
          type: 'multistep',
          target: 'http://shop.test/',
          locations: ['eu'],
          ...check,
        },
      ],
    },
  ],
});

function problems(check: Record<string, unknown>): string {
  try {
    validateConfig(withCheck(check), 'checkwall.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return '';
}

const at = 'accounts.0.checks.0';

describe('multistep steps in the config', () => {
  it('accepts every action', () => {
    const steps = [
      { action: 'goto', url: '/signup' },
      { action: 'waitFor', selector: '#email' },
      { action: 'type', selector: '#email', text: 'ada@example.com' },
      { action: 'click', selector: 'button[type=submit]' },
      { action: 'waitFor', text: 'Welcome' },
      { action: 'assertText', contains: 'Welcome' },
      { action: 'assertText', selector: '#welcome', contains: 'ada' },
      { action: 'goto', url: 'https://shop.test/account' },
      { action: 'fill', selector: 'role=textbox[name="Email"]', text: 'ada@example.com' },
      { action: 'press', key: 'Enter' },
      { action: 'press', selector: '#q', key: 'Control+A' },
      { action: 'select', selector: '#plan', option: 'Pro' },
      { action: 'assertVisible', selector: 'text=Sign up' },
      { action: 'assertUrl', contains: '/welcome' },
    ];
    const config = validateConfig(withCheck({ steps }), 'checkwall.yaml');
    expect(config.accounts[0]!.checks[0]!.steps).toEqual(steps);
  });

  it.each([
    [{ steps: undefined }, `${at}.steps: a multistep check needs at least one step`],
    [{ steps: [] }, `${at}.steps: a multistep check needs at least one step`],
    [
      { steps: [{ action: 'hover', selector: '#x' }] },
      `${at}.steps.0.action: action must be one of goto, click, fill, type, press, select, waitFor, assertText, assertVisible, assertUrl`,
    ],
    [{ steps: [{ action: 'click' }] }, `${at}.steps.0.selector: a selector is required`],
    [{ steps: [{ action: 'click', selector: '' }] }, `${at}.steps.0.selector: must be a selector`],
    [{ steps: [{ action: 'click', selecter: '#x' }] }, `${at}.steps.0.selecter: unknown key "selecter"`],
    [{ steps: [{ action: 'type', selector: '#x' }] }, `${at}.steps.0.text: the text to type is required`],
    [
      { steps: [{ action: 'goto', url: 'shop.test' }] },
      `${at}.steps.0.url: must be an http(s) URL or a path`,
    ],
    [{ steps: [{ action: 'waitFor' }] }, 'waitFor takes either a selector or a text'],
    [
      {
        steps: [
          { action: 'goto', url: '/a' },
          { action: 'fill', selector: '#x' },
        ],
      },
      `${at}.steps.1.text: the text to fill in is required`,
    ],
    [{ steps: [{ action: 'press' }] }, `${at}.steps.0.key: a key, e.g. "Enter" is required`],
    [{ steps: [{ action: 'press', key: '' }] }, `${at}.steps.0.key: must be a key`],
    [
      { steps: [{ action: 'select', selector: '#plan' }] },
      `${at}.steps.0.option: the option to select is required`,
    ],
    [{ steps: [{ action: 'assertVisible' }] }, `${at}.steps.0.selector: a selector is required`],
    [
      { steps: [{ action: 'assertUrl', contains: 3 }] },
      `${at}.steps.0.contains: the expected address must be a string`,
    ],
    [{ steps: [{ action: 'assertUrl', url: '/a' }] }, `${at}.steps.0.url: unknown key "url"`],
    [
      { type: 'api', target: 'http://shop.test/', screenshot: 'always' },
      `${at}.screenshot: only browser and multistep`,
    ],
    [{ type: 'browser', screenshot: 'sometimes' }, `${at}.screenshot:`],
    [
      { steps: [{ action: 'waitFor', selector: '#a', text: 'b' }] },
      'waitFor takes either a selector or a text',
    ],
    [
      { steps: [{ action: 'assertText', selector: '#a' }] },
      `${at}.steps.0.contains: the expected text is required`,
    ],
    [
      { type: 'browser', steps: [{ action: 'click', selector: '#a' }] },
      `${at}.steps: steps belong to multistep checks`,
    ],
    [{ type: 'browser', target: 'shop.test' }, `${at}.target: must be an http:// or https:// URL`],
    [{ type: 'browser', method: 'POST' }, `${at}.method: a browser check loads its page with GET`],
  ])('rejects %j: %s', (check, message) => {
    const text = problems(check);
    expect(text).toContain('checkwall.yaml is not a valid checkwall config');
    expect(text).toContain(message);
  });
});

describe('step descriptions in errors', () => {
  it.each([
    [{ action: 'goto', url: '/a' }, 'goto /a'],
    [{ action: 'click', selector: '#buy' }, 'click "#buy"'],
    [{ action: 'type', selector: '#q', text: 'x' }, 'type into "#q"'],
    [{ action: 'waitFor', selector: '#q' }, 'waitFor "#q"'],
    [{ action: 'waitFor', text: 'Done' }, 'waitFor text "Done"'],
    [{ action: 'assertText', contains: 'Hi', selector: 'h1' }, 'assertText "Hi" in "h1"'],
    [{ action: 'fill', selector: '#q', text: 'x' }, 'fill "#q"'],
    [{ action: 'press', key: 'Enter' }, 'press Enter'],
    [{ action: 'press', key: 'Tab', selector: '#q' }, 'press Tab in "#q"'],
    [{ action: 'select', selector: '#plan', option: 'Pro' }, 'select "Pro" in "#plan"'],
    [
      { action: 'assertVisible', selector: 'role=button[name="Buy"]' },
      'assertVisible "role=button[name=\\"Buy\\"]"',
    ],
    [{ action: 'assertUrl', contains: '/done' }, 'assertUrl "/done"'],
  ] as const)('%j reads %s', (step, text) => {
    expect(describeStep(step)).toBe(text);
  });
});

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

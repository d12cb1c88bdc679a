// Unknown keys anywhere in the service config are errors naming their path:
// a typo must never silently turn off a check or an alert.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile, validateConfig } from '../../../src/server/config/load.js';
import { TEST_ACCOUNT, TEST_KEY } from '../../helpers/service.js';

const base = () => ({
  accounts: [
    {
      id: TEST_ACCOUNT,
      apiKeys: [TEST_KEY],
      locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
      checks: [
        {
          id: 'api',
          name: 'API',
          type: 'api',
          target: 'https://example.com/',
          locations: ['eu-west'],
          assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }],
        },
      ],
      dashboards: [{ id: 'd', name: 'D', customUrl: 'd', widgets: [{ type: 'x', position: 0, title: 't' }] }],
      alertChannels: [
        { type: 'WEBHOOK', name: 'hook', config: { url: 'https://h.example/', method: 'POST' } },
      ],
    },
  ],
});

type Raw = ReturnType<typeof base> & Record<string, unknown>;
const problem = (change: (raw: Raw) => void): string => {
  const raw = base() as Raw;
  change(raw);
  try {
    validateConfig(raw, 'checkwall.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return 'accepted';
};
const account = (raw: Raw) =>
  raw.accounts[0]! as Record<string, unknown> & ReturnType<typeof base>['accounts'][0];

describe('strict config', () => {
  it('accepts the config without unknown keys', () => {
    expect(problem(() => undefined)).toBe('accepted');
  });

  it.each<[string, (raw: Raw) => void]>([
    ['smpt', (raw) => (raw['smpt'] = { url: 'smtp://mail' })],
    ['accounts.0.alerts', (raw) => (account(raw)['alerts'] = [])],
    ['accounts.0.checks.0.frequncy', (raw) => Object.assign(account(raw).checks[0]!, { frequncy: '1m' })],
    [
      'accounts.0.checks.0.assertions.0.operator',
      (raw) => Object.assign(account(raw).checks[0]!.assertions[0]!, { operator: 'x' }),
    ],
    ['accounts.0.locations.0.country', (raw) => Object.assign(account(raw).locations[0]!, { country: 'DE' })],
    [
      'accounts.0.dashboards.0.configuration.colour',
      (raw) => Object.assign(account(raw).dashboards[0]!, { configuration: { colour: 'red' } }),
    ],
    [
      'accounts.0.dashboards.0.widgets.0.size',
      (raw) => Object.assign(account(raw).dashboards[0]!.widgets[0]!, { size: 2 }),
    ],
    [
      'accounts.0.alertChannels.0.muted',
      (raw) => Object.assign(account(raw).alertChannels[0]!, { muted: true }),
    ],
    [
      'accounts.0.alertChannels.0.config.secret',
      (raw) => Object.assign(account(raw).alertChannels[0]!.config, { secret: 'x' }),
    ],
    [
      'accounts.0.alertChannels.0.config.headers.0.vlaue',
      (raw) =>
        Object.assign(account(raw).alertChannels[0]!.config, {
          headers: [{ key: 'a', value: 'b', vlaue: 'c' }],
        }),
    ],
  ])('refuses %s, naming its path', (path, change) => {
    const key = path.split('.').at(-1)!;
    expect(problem(change)).toBe(
      `checkwall.yaml is not a valid checkwall config:\n  ${path}: unknown key "${key}" (a typo, or not a checkwall setting)`,
    );
  });

  it('names every unknown key of one object, one line each', () => {
    const message = problem((raw) =>
      Object.assign(account(raw).checks[0]!, { frequncy: '1m', enabeld: false }),
    );
    expect(message.split('\n').slice(1)).toEqual([
      '  accounts.0.checks.0.frequncy: unknown key "frequncy" (a typo, or not a checkwall setting)',
      '  accounts.0.checks.0.enabeld: unknown key "enabeld" (a typo, or not a checkwall setting)',
    ]);
  });
});

describe("a check's request headers", () => {
  // Taken, they failed every run ("invalid header key") as if the target were down.
  it('are refused at load when no HTTP request can carry them, naming each', () => {
    const message = problem((raw) =>
      Object.assign(account(raw).checks[0]!, { headers: { 'X Token': 'a', 'X-B': 'on 😀', 'X-C': 'ok' } }),
    );
    expect(message.split('\n').slice(1)).toEqual([
      "  accounts.0.checks.0.headers.X Token: must be an HTTP header name: letters, digits and !#$%&'*+-.^_`|~, no spaces or colons",
      '  accounts.0.checks.0.headers.X-B: must hold only tabs, printable ASCII and Latin-1 characters (no emoji, no control characters)',
    ]);
  });
});

describe('a config file that does not parse', () => {
  const SECRET = 'cw_live_0123456789abcdefSECRET';
  const refusal = (name: string, text: string): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'cw-config-')), name);
    writeFileSync(path, text);
    try {
      loadConfigFile(path);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  // The message goes to the log of a refused reload; the line it is about may hold a key.
  it.each([
    ['checkwall.yaml', `accounts:\n  - id: x\n    apiKeys: ${SECRET}: x\n`, 'at line 3, column 14'],
    [
      'checkwall.yaml',
      `smtp:\n  url: smtp://u:${SECRET}@h\n  url: smtp://u:${SECRET}@h\n`,
      'at line 3, column 3',
    ],
    ['checkwall.json', `{"accounts":[{"apiKeys":[${SECRET}]}]}`, "Unexpected token 'c'"],
    ['checkwall.json', `{"accounts":[{"apiKeys":["${SECRET}"] x}]}`, 'at line 1, column'],
  ])('%s names where it breaks, never quoting the line', (name, text, where) => {
    const message = refusal(name, text);
    expect(message).toContain(where);
    expect(message).not.toContain(SECRET.slice(0, 8));
  });
});

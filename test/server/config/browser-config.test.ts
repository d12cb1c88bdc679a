// The config of browser and multistep checks: steps validated at load with
// messages that name the field.
import { describe, expect, it } from 'vitest';
import { ConfigError, validateConfig } from '../../../src/server/config/load.js';

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

// Ids a lookup keeps one of are refused when named twice, with both places: the
// second would have shadowed the first without a word.
import { describe, expect, it } from 'vitest';
import { ConfigError, validateConfig } from '../../../src/server/config/load.js';
import { TEST_ACCOUNT, TEST_KEY } from '../../helpers/service.js';

const OTHER_ACCOUNT = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const TOKEN = 'ping-0123456789abcdef';

const heartbeat = (id: string, token: string) => ({
  id,
  name: id,
  type: 'heartbeat',
  token,
  frequency: '1h',
  locations: ['eu-west'],
});
const account = (id: string, key: string, token: string) => ({
  id,
  apiKeys: [key],
  locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
  groups: [{ id: 'core', name: 'Core' }],
  checks: [heartbeat('backup', token)],
  dashboards: [{ id: 'status', name: 'Status', customUrl: `status-${id.slice(0, 8)}` }],
});
type Account = ReturnType<typeof account>;

const problem = (change: (accounts: Account[]) => void): string => {
  const accounts = [account(TEST_ACCOUNT, TEST_KEY, TOKEN)];
  change(accounts);
  try {
    validateConfig({ accounts }, 'checkwall.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return 'accepted';
};

describe('ids named twice', () => {
  it('accepts a config where each is named once, and a second account with its own token', () => {
    expect(problem(() => undefined)).toBe('accepted');
    expect(
      problem((a) => a.push(account(OTHER_ACCOUNT, 'cw_other_0123456789abcdef', 'ping-fedcba9876543210'))),
    ).toBe('accepted');
  });

  it.each<[string, (accounts: Account[]) => void]>([
    [
      'accounts.0.groups.1.id: "core" is used twice (first at accounts.0.groups.0.id)',
      (a) => a[0]!.groups.push({ id: 'core', name: 'Core again' }),
    ],
    [
      'accounts.0.dashboards.1.id: "status" is used twice (first at accounts.0.dashboards.0.id)',
      (a) => a[0]!.dashboards.push({ id: 'status', name: 'Status 2', customUrl: 'status-2' }),
    ],
    [
      'accounts.0.locations.1.id: "eu-west" is used twice (first at accounts.0.locations.0.id)',
      (a) => a[0]!.locations.push({ id: 'eu-west', name: 'Paris', region: 'eu-west-3' }),
    ],
    [
      'accounts.0.checks.0.locations.1: "eu-west" is used twice (first at accounts.0.checks.0.locations.0)',
      (a) => a[0]!.checks[0]!.locations.push('eu-west'),
    ],
    [
      'accounts.0.checks.1.token: the same token as accounts.0.checks.0.token; each heartbeat needs its own',
      (a) => a[0]!.checks.push(heartbeat('report', TOKEN)),
    ],
    // A ping URL names no account, so a token is one check's across the whole service.
    [
      'accounts.1.checks.0.token: the same token as accounts.0.checks.0.token; each heartbeat needs its own',
      (a) => a.push({ ...account(OTHER_ACCOUNT, 'cw_other_0123456789abcdef', TOKEN), dashboards: [] }),
    ],
  ])('refuses %s', (expected, change) => {
    const message = problem(change);
    expect(message).toContain(`  ${expected}`);
    expect(message.split('\n').slice(1)).toEqual([`  ${expected}`]);
  });

  it('never echoes a token it refuses', () => {
    expect(problem((a) => a[0]!.checks.push(heartbeat('report', TOKEN)))).not.toContain(TOKEN);
  });
});

// API keys in the config (issue 32): named keys with a role, written as the key
// or only its SHA-256; a plain string is an admin key named after its digest.
// Every refusal names where, never a key.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { applyEnvAccount, applyEnvRunnerTokens, validateConfig } from '../../../src/server/config/load.js';
import { createAccounts } from '../../../src/server/config/accounts.js';
import { OTHER_ACCOUNT, TEST_ACCOUNT, TEST_KEY } from '../../helpers/service.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const READ_KEY = 'cw_read_0123456789abcdef';
const OPS_KEY = 'cw_ops_0123456789abcdef';

const configOf = (accounts: unknown[]) => validateConfig({ accounts }, 'test.yaml');
const account = (id: string, apiKeys: unknown[], extra: object = {}) => ({ id, apiKeys, ...extra });
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('apiKeys', () => {
  it('takes objects with a key or its SHA-256, and plain strings as admin keys named key-<8 hex digits>', () => {
    const config = configOf([
      account(TEST_ACCOUNT, [
        TEST_KEY,
        { key: READ_KEY, name: 'viewer', role: 'read' },
        { keySha256: sha256(OPS_KEY).toUpperCase(), name: 'oncall', role: 'operate' },
      ]),
    ]);
    expect(config.accounts[0]!.apiKeys).toEqual([
      { key: TEST_KEY, name: `key-${sha256(TEST_KEY).slice(0, 8)}`, role: 'admin' },
      { key: READ_KEY, name: 'viewer', role: 'read' },
      { keySha256: sha256(OPS_KEY), name: 'oncall', role: 'operate' },
    ]);
    // A parsed config parses again to itself (a reload, the environment's account).
    expect(validateConfig(config, 'again')).toEqual(config);
    const accounts = createAccounts(config, new Date());
    expect(accounts.byKey(OPS_KEY)?.key).toEqual({ name: 'oncall', role: 'operate' });
    expect(accounts.byKey(READ_KEY)?.key).toEqual({ name: 'viewer', role: 'read' });
    expect(accounts.byKey(TEST_KEY)?.account.id).toBe(TEST_ACCOUNT);
    expect(accounts.byKey(sha256(OPS_KEY))).toBeUndefined();
  });

  it('refuses an object with both or neither of key and keySha256, a bad digest, or an unknown role', () => {
    const bad = (key: object) => refusal(() => configOf([account(TEST_ACCOUNT, [key])]));
    expect(bad({ key: READ_KEY, keySha256: sha256(READ_KEY), name: 'x', role: 'read' })).toContain(
      'give exactly one of key and keySha256',
    );
    expect(bad({ name: 'x', role: 'read' })).toContain('give exactly one of key and keySha256');
    expect(bad({ keySha256: 'abc', name: 'x', role: 'read' })).toContain('64 hex digits');
    expect(bad({ key: READ_KEY, name: 'x', role: 'owner' })).toMatch(/accounts\.0\.apiKeys\.0\.role/);
  });

  it('refuses two keys of one name in an account', () => {
    const message = refusal(() =>
      configOf([
        account(TEST_ACCOUNT, [
          { key: READ_KEY, name: 'viewer', role: 'read' },
          { key: OPS_KEY, name: 'viewer', role: 'operate' },
        ]),
      ]),
    );
    expect(message).toContain('accounts.0.apiKeys.1.name');
    expect(message).toContain('"viewer" is the name of apiKeys.0 too');
  });

  it('refuses one key in two accounts, plain or by digest, naming both and neither key', () => {
    const message = refusal(() =>
      configOf([
        account(TEST_ACCOUNT, [TEST_KEY]),
        account(OTHER_ACCOUNT, [{ keySha256: sha256(TEST_KEY), name: 'copy', role: 'read' }]),
      ]),
    );
    expect(message).toContain(
      `accounts.1.apiKeys.0 (account ${OTHER_ACCOUNT}): the same key as accounts.0.apiKeys.0 (account ${TEST_ACCOUNT})`,
    );
    expect(message).not.toContain(TEST_KEY);
    expect(message).not.toContain(sha256(TEST_KEY));
  });

  it('refuses a runner token that is any account’s API key, plain or by digest', () => {
    const config = configOf([
      account(TEST_ACCOUNT, [TEST_KEY], {
        locations: [{ id: 'far', name: 'Far', region: 'x', remote: true, runnerToken: OPS_KEY }],
      }),
      account(OTHER_ACCOUNT, [{ keySha256: sha256(OPS_KEY), name: 'oncall', role: 'operate' }]),
    ]);
    const message = refusal(() => applyEnvRunnerTokens(config, {}));
    expect(message).toContain('accounts.0.locations.0.runnerToken: must not be an API key (of any account)');
    expect(message).not.toContain(OPS_KEY);
  });

  it('makes the environment’s key an admin key of the first account', () => {
    const config = applyEnvAccount(configOf([account(TEST_ACCOUNT, [READ_KEY])]), {
      CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
      CHECKWALL_API_KEY: OPS_KEY,
    });
    expect(config.accounts[0]!.apiKeys).toEqual([
      { key: OPS_KEY, name: `key-${sha256(OPS_KEY).slice(0, 8)}`, role: 'admin' },
    ]);
  });
});

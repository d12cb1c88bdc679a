// Remote locations in the config (issue 12): strict keys, a runner token for
// each, from the file or CHECKWALL_RUNNER_TOKEN_<ID>, never echoed back.
import { describe, expect, it } from 'vitest';
import {
  applyEnvRunnerTokens,
  runnerTokenVariable,
  validateConfig,
} from '../../../src/server/config/load.js';
import { TEST_ACCOUNT, TEST_KEY } from '../../helpers/service.js';

const TOKEN = 'far-runner-token-0123456789';

const config = (locations: unknown[]) =>
  validateConfig(
    {
      accounts: [
        {
          id: TEST_ACCOUNT,
          apiKeys: [TEST_KEY],
          locations,
          checks: [{ id: 'c1', name: 'c1', type: 'api', target: 'http://127.0.0.1:9/', locations: ['far'] }],
        },
      ],
    },
    'test.yaml',
  );

const far = { id: 'far-away', name: 'Far', region: 'x', remote: true };
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('remote locations in the config', () => {
  it('names the env variable after the location id', () => {
    expect(runnerTokenVariable('far-away')).toBe('CHECKWALL_RUNNER_TOKEN_FAR_AWAY');
    expect(runnerTokenVariable('eu.west_1')).toBe('CHECKWALL_RUNNER_TOKEN_EU_WEST_1');
  });

  it('refuses a remote location without a token, naming its path and the variable', () => {
    const c = config([{ ...far, id: 'far' }]);
    expect(refusal(() => applyEnvRunnerTokens(c, {}))).toContain(
      'accounts.0.locations.0.runnerToken: a remote location needs a runner token (here, or in CHECKWALL_RUNNER_TOKEN_FAR)',
    );
  });

  it('takes the token from the environment, which replaces the file', () => {
    const c = config([{ ...far, id: 'far', runnerToken: 'from-the-file-0123456789' }]);
    const applied = applyEnvRunnerTokens(c, { CHECKWALL_RUNNER_TOKEN_FAR: TOKEN });
    expect(applied.accounts[0]!.locations[0]!.runnerToken).toBe(TOKEN);
    expect(applyEnvRunnerTokens(c, {}).accounts[0]!.locations[0]!.runnerToken).toBe(
      'from-the-file-0123456789',
    );
  });

  it('refuses a token that is an API key, shared by two locations, short, or on a local location, never echoing it', () => {
    const key = refusal(() =>
      applyEnvRunnerTokens(config([{ ...far, id: 'far', runnerToken: TEST_KEY }]), {}),
    );
    expect(key).toContain('accounts.0.locations.0.runnerToken: must not be an API key (of any account)');
    expect(key).not.toContain(TEST_KEY);
    const twice = refusal(() =>
      applyEnvRunnerTokens(
        config([
          { ...far, id: 'far', runnerToken: TOKEN },
          { ...far, id: 'other', runnerToken: TOKEN },
        ]),
        {},
      ),
    );
    expect(twice).toContain(
      'accounts.0.locations.1.runnerToken: the same token as accounts.0.locations.0.runnerToken',
    );
    expect(twice).not.toContain(TOKEN);
    const short = refusal(() =>
      applyEnvRunnerTokens(config([{ ...far, id: 'far' }]), { CHECKWALL_RUNNER_TOKEN_FAR: 'short' }),
    );
    expect(short).toContain('must be at least 16 characters');
    const local = refusal(() =>
      applyEnvRunnerTokens(config([{ id: 'far', name: 'Far', region: 'x', runnerToken: TOKEN }]), {}),
    );
    expect(local).toContain('only a remote location (remote: true) has a runner token');
  });

  it('refuses an unknown key on a location (strict)', () => {
    expect(refusal(() => config([{ ...far, id: 'far', remot: true }]))).toMatch(/remot/);
  });
});

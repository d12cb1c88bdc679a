// Remote locations in the config (issue 12): strict keys, a runner token for
// each, from the file or CHECKWALL_RUNNER_TOKEN_<ID>, never echoed back.
import { describe, expect, it } from 'vitest';
import { decideCheckStatus } from '../../../src/domain/status-rules.js';
import { applyEnvRunnerTokens, runnerTokenVariable, validateConfig } from '../../../src/server/config/load.js';
import { runnerReach } from '../../../src/server/status/runner-reach.js';
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
    expect(key).toContain("accounts.0.locations.0.runnerToken: must not be one of the account's API keys");
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

describe('status of a remote location without a runner', () => {
  const base = {
    now: 100_000,
    enabled: true,
    runnable: true,
    frequencyMs: 2_000,
    thresholds: {},
    availability: 100,
    activeCriticalAlerts: 0,
  };
  const ok = [{ startedAt: 99_000, status: 'success' as const, responseTime: 10 }];

  it('is unknown there with the reason, whatever its stored runs say; the check is judged on the others', () => {
    const decision = decideCheckStatus({
      ...base,
      locations: [
        { id: 'far', recent: ok, noRunner: 'no runner connected for Far' },
        { id: 'near', recent: ok },
      ],
    });
    expect(decision.locations).toEqual([
      { id: 'far', status: 'unknown' },
      { id: 'near', status: 'passing' },
    ]);
    expect(decision.status).toBe('passing');
    expect(decision.reason).toBe('recent runs passed everywhere; no runner connected for Far');
  });

  it('makes the check unknown with the reason when it is its only location', () => {
    const decision = decideCheckStatus({
      ...base,
      locations: [{ id: 'far', recent: ok, noRunner: 'no runner connected for Far' }],
    });
    expect(decision).toMatchObject({ status: 'unknown', reason: 'no runner connected for Far' });
  });
});

describe("runner reach (the engine's input)", () => {
  const locations = [
    { id: 'near', name: 'Near', region: 'x', remote: false },
    { id: 'far', name: 'Far', region: 'x', remote: true },
    { id: 'dark', name: 'Dark', region: 'x', remote: true },
  ];
  const seen = (id: string) => (id === 'far' ? 90_000 : null);

  it('names the remote locations unheard of for 3 x the frequency, and when the others would turn', () => {
    expect(runnerReach(seen, locations, { type: 'api' }, 2_000, 95_000)).toEqual({
      missing: [undefined, undefined, 'no runner connected for Dark'],
      until: 96_001,
    });
    expect(runnerReach(seen, locations, { type: 'api' }, 2_000, 96_001).missing[1]).toBe(
      'no runner connected for Far',
    );
    // Heartbeats are judged by the service, remote location or not.
    expect(runnerReach(seen, locations, { type: 'heartbeat' }, 2_000, 200_000)).toEqual({
      missing: [undefined, undefined, undefined],
      until: Infinity,
    });
  });
});

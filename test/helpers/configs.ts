// Service configs for tests: one account under the test credentials, its locations and
// its checks, each an `api` check named by its id unless the test says otherwise. One
// home for the builder that many test files once wrote each.
import type { z } from 'zod';
import {
  CheckConfigSchema,
  ServiceConfigSchema,
  type CheckConfig,
  type ServiceConfig,
} from '../../src/server/config/schema.js';

export const TEST_ACCOUNT = '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b';
export const TEST_KEY = 'cw_test_0123456789abcdef';
export const RUNNER_TOKEN = 'runner-token-far-0123456789';

/** A location the service runs checks at itself. */
export const NEAR = { id: 'near', name: 'Near', region: 'here' };
/** A remote location: its runs wait for a runner holding RUNNER_TOKEN. */
export const FAR = {
  id: 'far',
  name: 'Far Away',
  region: 'elsewhere',
  remote: true,
  runnerToken: RUNNER_TOKEN,
};

type ConfigInput = z.input<typeof ServiceConfigSchema>;
type AccountInput = NonNullable<ConfigInput['accounts']>[number];

/** A check: its id (and target, but a heartbeat's), and any field of the config's check to set. */
export type TestCheck = { id: string; target?: string } & Record<string, unknown>;

export interface AccountConfigOptions {
  /** NEAR alone unless given. */
  locations?: AccountInput['locations'];
  /** Each runs every minute at every location of the account unless it says otherwise. */
  checks: TestCheck[];
  /** More of the account: groups, channels, limits. */
  account?: Partial<Omit<AccountInput, 'id' | 'apiKeys' | 'locations' | 'checks'>>;
  /** The service's own settings beside the account (maxConcurrentRuns, retention). */
  service?: Omit<ConfigInput, 'accounts'>;
}

/** A whole service config of one account (TEST_ACCOUNT, TEST_KEY), parsed as the service parses its file. */
export function accountConfig(opts: AccountConfigOptions): ServiceConfig {
  const locations = opts.locations ?? [NEAR];
  return ServiceConfigSchema.parse({
    ...opts.service,
    accounts: [
      {
        id: TEST_ACCOUNT,
        apiKeys: [TEST_KEY],
        locations,
        ...opts.account,
        checks: opts.checks.map((check) => ({
          name: check.id,
          type: 'api',
          frequency: '1m',
          locations: locations.map((l) => l.id),
          ...check,
        })),
      },
    ],
  });
}

/** One api check "c" at the location "here", parsed as the config parses it: for a runner's tests. */
export const apiCheck = (over: Record<string, unknown>): CheckConfig =>
  CheckConfigSchema.parse({ id: 'c', name: 'C', type: 'api', locations: ['here'], timeoutMs: 5000, ...over });

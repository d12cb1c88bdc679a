// The project's own service on 127.0.0.1:0 with an in-memory database, for
// every test that needs a real server. The scheduler is off unless asked for,
// so tests seed results and get deterministic statuses.
import { randomUUID } from 'node:crypto';
import type { CheckResult } from '../../src/api/schemas/index.js';
import type { Clock } from '../../src/domain/clock.js';
import { ServiceConfigSchema, type ServiceConfig } from '../../src/server/config/schema.js';
import { createService, type Service } from '../../src/server/service/index.js';
import { metricsWorkerEntry, runWorkerEntry, sqliteWriterEntry } from './run-worker.js';
import { sampleResult } from './samples.js';

import { TEST_ACCOUNT, TEST_KEY } from './configs.js';

export { TEST_ACCOUNT, TEST_KEY };
export const OTHER_ACCOUNT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const OTHER_KEY = 'cw_other_0123456789abcdef';

export interface TestServiceOptions {
  checks?: number;
  maxAlertChannels?: number;
  startScheduler?: boolean;
  config?: ServiceConfig;
  dbPath?: string;
  /** A fixed port (e.g. one a test saw refused a moment ago); 0 by default. */
  port?: number;
  rateLimit?: { perSecond: number; burst: number };
  /** The service's clock (reminders and intervals); Date.now by default. */
  now?: () => number;
  /** The whole clock, timers too (test/helpers/fake-clock.ts): the test moves the time. */
  clock?: Clock;
  /** How long a remote runner holds a claimed run (issue 12). */
  runnerLeaseMs?: number;
  /** How often lease-expired local runs are taken over (issue 12). */
  sweepEveryMs?: number;
  /** The service's own lines (a refused runner token). */
  log?: (line: string) => void;
}

export interface TestService extends Service {
  credentials: { accountId: string; apiKey: string };
  /** Seeds results for a check, one after another as a runner would: statuses in order, newest last. */
  seed(checkId: string, statuses: Array<'success' | 'failed'>, opts?: SeedOptions): Promise<CheckResult[]>;
}

export interface SeedOptions {
  location?: string;
  spacingMs?: number;
  responseTime?: number;
  accountId?: string;
  endAt?: number;
  /** The TLS certificate every seeded result was shown (issue 35). */
  certificate?: CheckResult['certificate'];
}

/** A config of N api checks over two locations, with groups, tags and dashboards, and a second account. */
export function testConfig(checks = 3, maxAlertChannels = 10): ServiceConfig {
  const locations = [
    { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' },
    { id: 'us-east', name: 'Virginia', region: 'us-east-1' },
  ];
  return ServiceConfigSchema.parse({
    accounts: [
      {
        id: TEST_ACCOUNT,
        apiKeys: [TEST_KEY],
        maxAlertChannels,
        locations,
        groups: [
          { id: 'core', name: 'Core' },
          { id: 'edge', name: 'Edge' },
        ],
        checks: Array.from({ length: checks }, (_, i) => ({
          id: `c${i + 1}`,
          name: `Check ${String(i + 1).padStart(4, '0')}`,
          type: i % 5 === 4 ? 'tcp' : 'api',
          target: i % 5 === 4 ? '127.0.0.1:9' : 'http://127.0.0.1:9/health',
          frequency: '1m',
          locations: ['eu-west', 'us-east'],
          tags: i % 2 === 0 ? ['even', 'prod'] : ['odd', 'prod'],
          group: i % 3 === 0 ? 'edge' : 'core',
          degradedMs: 1000,
        })),
        dashboards: [
          {
            id: 'ops',
            name: 'Operations',
            customUrl: 'ops',
            isPrivate: true,
            tags: ['ops'],
            checkIds: ['c1'],
            checkGroupIds: ['edge'],
          },
          {
            id: 'public',
            name: 'Public status',
            customUrl: 'status',
            isPrivate: false,
            tags: ['public'],
            checkIds: ['c2'],
          },
        ],
      },
      {
        id: OTHER_ACCOUNT,
        apiKeys: [OTHER_KEY],
        locations,
        checks: [
          {
            id: 'secret',
            name: 'Other account check',
            type: 'api',
            target: 'http://127.0.0.1:9/',
            locations: ['eu-west'],
          },
        ],
      },
    ],
  });
}

export async function startTestService(opts: TestServiceOptions = {}): Promise<TestService> {
  const config = opts.config ?? testConfig(opts.checks, opts.maxAlertChannels);
  const service = await createService({
    config,
    dbPath: opts.dbPath ?? ':memory:',
    startScheduler: opts.startScheduler ?? false,
    host: '127.0.0.1',
    port: opts.port ?? 0,
    rateLimit: opts.rateLimit ?? { perSecond: 10_000, burst: 100_000 },
    workers: { entry: await runWorkerEntry() },
    sqliteWriter: await sqliteWriterEntry(),
    metricsThread: await metricsWorkerEntry(),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.runnerLeaseMs ? { runnerLeaseMs: opts.runnerLeaseMs } : {}),
    ...(opts.sweepEveryMs ? { sweepEveryMs: opts.sweepEveryMs } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  const seed = async (checkId: string, statuses: Array<'success' | 'failed'>, s: SeedOptions = {}) => {
    const spacing = s.spacingMs ?? 60_000;
    const end = s.endAt ?? Date.now() - 1_000;
    const accountId = s.accountId ?? TEST_ACCOUNT;
    const account = config.accounts.find((a) => a.id === accountId)!;
    const check = account.checks.find((c) => c.id === checkId)!;
    const location = account.locations.find((l) => l.id === (s.location ?? 'eu-west'))!;
    const results = statuses.map((status, i) => {
      const startedAt = end - (statuses.length - 1 - i) * spacing;
      const rt = s.responseTime ?? 100 + i;
      const result = sampleResult(randomUUID(), {
        checkId,
        checkName: check.name,
        checkType: check.type,
        status,
        startedAt: new Date(startedAt).toISOString(),
        finishedAt: new Date(startedAt + rt).toISOString(),
        duration: rt,
        location,
        response: {
          statusCode: status === 'success' ? 200 : 500,
          statusText: '',
          headers: {},
          body: '{}',
          responseTime: rt,
          size: 2,
        },
        assertions: [
          {
            source: 'STATUS_CODE',
            property: '',
            comparison: 'EQUALS',
            target: '200',
            passed: status === 'success',
            ...(status === 'failed' ? { actual: '500' } : {}),
          },
        ],
        timing: { dns: 1, tcp: 1, firstByte: rt - 4, download: 2, total: rt },
        ...(s.certificate ? { certificate: s.certificate } : {}),
      });
      return result;
    });
    for (const result of results) await service.record(accountId, result);
    return results;
  };
  return { ...service, credentials: { accountId: TEST_ACCOUNT, apiKey: TEST_KEY }, seed };
}

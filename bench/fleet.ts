// A service holding 10,000 checks for the console benches: the project's own
// service on 127.0.0.1:0 with its scheduler off and its storage pre-seeded, so
// the statuses are real (computed by the status engine from stored results)
// without 30,000 runs a minute melting the machine.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult } from '../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../src/server/config/schema.js';
import { createService, type Service } from '../src/server/service/index.js';
import { sampleResult } from '../test/helpers/samples.js';
import { BENCH_LOCATIONS as LOCATIONS } from './fixtures.js';

export const ACCOUNT = '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b';
export const KEY = 'cw_bench_0123456789abcdef';
export const RUNS_PER_LOCATION = 3;

export type Kind = 'failing' | 'degraded' | 'unknown' | 'passing';

/** 1 % failing, 2 % degraded, 1 % never ran, the rest passing; spread over the names. */
export function kindOf(i: number): Kind {
  const r = i % 100;
  return r === 7 ? 'failing' : r === 13 || r === 61 ? 'degraded' : r === 42 ? 'unknown' : 'passing';
}

export const checkName = (i: number) => `Check ${String(i).padStart(5, '0')}`;

export interface Fleet {
  checks: number;
  service: Service;
  url: string;
  env: Record<string, string>;
  /** Stores runs that make check i fail at two locations (true) or pass everywhere (false). */
  setFailing(i: number, failing: boolean): Promise<void>;
  /** Stores one more successful run of check i at one location (its figures change, its status not). */
  touch(i: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFleet(checks = 10_000): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-fleet-'));
  const config = ServiceConfigSchema.parse({
    accounts: [
      {
        id: ACCOUNT,
        apiKeys: [KEY],
        locations: LOCATIONS,
        groups: [
          { id: 'core', name: 'Core' },
          { id: 'edge', name: 'Edge' },
        ],
        checks: Array.from({ length: checks }, (_, i) => ({
          id: `c${i}`,
          name: checkName(i),
          type: i % 5 === 4 ? 'tcp' : 'api',
          target: i % 5 === 4 ? '127.0.0.1:9' : 'http://127.0.0.1:9/health',
          // Hourly: seeded runs stay fresh (unknown only after 3 h) while the scheduler is off.
          frequency: '1h',
          locations: LOCATIONS.map((l) => l.id),
          tags: [i % 2 ? 'odd' : 'even', 'bench'],
          group: i % 3 === 0 ? 'edge' : 'core',
          degradedMs: 1_000,
        })),
      },
    ],
  });
  const service = await createService({
    config,
    dbPath: join(dir, 'fleet.db'),
    startScheduler: false,
    rateLimit: { perSecond: 1e6, burst: 1e6 },
  });
  const end = Date.now() - 60_000;
  const run = (i: number, location: number, ok: boolean, at: number): CheckResult => {
    const rt = 80 + ((i * 37 + location * 11) % 300);
    return sampleResult(randomUUID(), {
      checkId: `c${i}`,
      checkName: checkName(i),
      checkType: i % 5 === 4 ? 'tcp' : 'api',
      status: ok ? 'success' : 'failed',
      startedAt: new Date(at).toISOString(),
      finishedAt: new Date(at + rt).toISOString(),
      duration: rt,
      location: LOCATIONS[location]!,
      response: {
        statusCode: ok ? 200 : 503,
        statusText: '',
        headers: {},
        body: '{}',
        responseTime: rt,
        size: 2,
      },
    });
  };
  for (let i = 0; i < checks; i++) {
    const kind = kindOf(i);
    if (kind === 'unknown') continue;
    const batch: CheckResult[] = [];
    for (let l = 0; l < LOCATIONS.length; l++) {
      for (let k = 0; k < RUNS_PER_LOCATION; k++) {
        const ok = kind === 'passing' || (kind === 'failing' ? l === 2 : !(l === 0 && k === 2));
        batch.push(run(i, l, ok, end - (RUNS_PER_LOCATION - 1 - k) * 600_000 + l * 1_000));
      }
    }
    await service.storage.insertResults(ACCOUNT, batch);
  }
  // Compute every status once now, as the service's own warmer would over its first seconds.
  const pairs = service.accounts
    .all()
    .flatMap((account) => account.checks.map((check) => ({ account, check })));
  await service.engine.warm(pairs, Number.POSITIVE_INFINITY);
  let clock = Date.now();
  const stamp = () => (clock = Math.max(clock + 1_000, Date.now()));
  return {
    checks,
    service,
    url: service.url,
    env: { CHECKWALL_BASE_URL: service.url, CHECKWALL_API_KEY: KEY, CHECKWALL_ACCOUNT_ID: ACCOUNT },
    async setFailing(i, failing) {
      const at = stamp();
      for (let l = 0; l < LOCATIONS.length; l++)
        for (let k = 0; k < 3; k++) await service.record(ACCOUNT, run(i, l, !failing, at + k * 10 + l));
    },
    touch: (i) => service.record(ACCOUNT, run(i, 0, true, stamp())),
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

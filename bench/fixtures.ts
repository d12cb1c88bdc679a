// What the service benches share: the account and locations their configs name, and a
// service on a throw-away SQLite file with no scheduler and no rate limit (each bench
// seeds the results it measures), removed with its file on close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceConfig } from '../src/server/config/schema.js';
import { createService, type Service, type ServiceOptions } from '../src/server/service/index.js';

export const BENCH_ACCOUNT = '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b';

export const BENCH_LOCATIONS = [
  { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' },
  { id: 'us-east', name: 'Virginia', region: 'us-east-1' },
  { id: 'ap-south', name: 'Singapore', region: 'ap-southeast-1' },
];

export interface BenchService {
  service: Service;
  /** Closes the service and removes its file. */
  close(): Promise<void>;
}

export async function benchService(
  config: ServiceConfig,
  opts: Pick<ServiceOptions, 'now'> = {},
): Promise<BenchService> {
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-bench-'));
  const service = await createService({
    config,
    dbPath: join(dir, 'bench.db'),
    startScheduler: false,
    rateLimit: { perSecond: 1e6, burst: 1e6 },
    ...opts,
  });
  return {
    service,
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

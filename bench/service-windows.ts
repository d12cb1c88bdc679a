// bench:service -- windows: what stored maintenance windows cost every account (issue 43).
// `GET /v1/me` p95 on an idle service, then with 10,000 windows stored in its database
// (20 accounts' active ones, the rest ended), read by the service's one-second tick as
// it reads them (incrementally: docs/maintenance.md, "Storage"). The windows are written
// straight to the storage, as another instance sharing the database would.
import os from 'node:os';
import { request } from 'undici';
import { ServiceConfigSchema } from '../src/server/config/schema.js';
import type { StoredWindow } from '../src/server/storage/types.js';
import { BENCH_LOCATIONS, benchService } from './fixtures.js';
import { fmt, quantiles } from './report.js';

const ACCOUNTS = 20;
const ACTIVE_PER_ACCOUNT = 100;
const TOTAL = 10_000;
const SAMPLES = 400;
const key = (a: number) => `cw_bench_windows_${String(a).padStart(4, '0')}_abcdef`;
const accountId = (a: number) => `0b6f3c52-7c1e-4d8a-9f2b-${String(a).padStart(12, '0')}`;

function config() {
  return ServiceConfigSchema.parse({
    accounts: Array.from({ length: ACCOUNTS }, (_, a) => ({
      id: accountId(a),
      apiKeys: [key(a)],
      locations: BENCH_LOCATIONS,
      checks: [
        {
          id: 'c1',
          name: 'c1',
          type: 'api',
          target: 'http://127.0.0.1:9/',
          tags: ['db'],
          locations: ['eu-west'],
        },
      ],
    })),
  });
}

function window(i: number, now: number): StoredWindow {
  const a = i % ACCOUNTS;
  const active = i < ACCOUNTS * ACTIVE_PER_ACCOUNT;
  const startsAt = active ? now - 60_000 : now - 86_400_000 - i * 1_000;
  return {
    accountId: accountId(a),
    id: `w${i}`,
    name: `window ${i}`,
    reason: 'bench',
    createdBy: 'bench',
    createdAt: startsAt,
    scope: { tags: ['db'] },
    startsAt,
    endsAt: active ? now + 86_400_000 : startsAt + 3_600_000,
    repeat: null,
    mode: 'silence',
    excludeFromAvailability: false,
    endedEarlyAt: null,
    occurrenceEnds: {},
  };
}

async function me(url: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const a = i % ACCOUNTS;
    const t = performance.now();
    const res = await request(`${url}/v1/me`, {
      headers: { authorization: `Bearer ${key(a)}`, 'x-service-account': accountId(a) },
    });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`/v1/me answered ${res.statusCode}`);
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20)); // spread over ticks of the window reader
  }
  return out;
}

export async function windowsReport(): Promise<string> {
  const bench = await benchService(config());
  const { service } = bench;
  try {
    await me(service.url); // warm
    const idleLoad = os.loadavg()[0]!;
    const idle = quantiles(await me(service.url));
    const now = Date.now();
    const t = performance.now();
    for (let i = 0; i < TOTAL; i++) await service.storage.saveMaintenanceWindow(window(i, now), now);
    const stored = (performance.now() - t) / 1000;
    // Past the read overlap (30 s): the steady state, where a tick finds nothing new.
    await new Promise((r) => setTimeout(r, 35_000));
    const withLoad = os.loadavg()[0]!;
    const loaded = quantiles(await me(service.url));
    const ratio = loaded.p95 / idle.p95;
    return `${ACCOUNTS} accounts; ${TOTAL.toLocaleString('en')} maintenance windows stored in ${stored.toFixed(1)} s
(${(ACCOUNTS * ACTIVE_PER_ACCOUNT).toLocaleString('en')} active, ${ACTIVE_PER_ACCOUNT} an account; the rest ended), then 35 s
for the service's one-second window reader to pass its read overlap. \`GET /v1/me\`, ${SAMPLES} requests one at a time
over real HTTP on 127.0.0.1, 20 ms apart, cycling through the accounts.

| \`GET /v1/me\` | p50 | p95 | max | load average (1 min) |
|---|---|---|---|---|
| idle, no window stored | ${fmt(idle.p50)} | ${fmt(idle.p95)} | ${fmt(idle.max)} | ${idleLoad.toFixed(2)} |
| with the 10,000 windows | ${fmt(loaded.p50)} | ${fmt(loaded.p95)} | ${fmt(loaded.max)} | ${withLoad.toFixed(2)} |

p95 with the windows / idle: ${ratio.toFixed(2)}× (the aim: within 2×).`;
  } finally {
    await bench.close();
  }
}

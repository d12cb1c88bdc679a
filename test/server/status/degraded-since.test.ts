// Issue 36: since when a check has been degraded, over real HTTP. A slow run is a
// success, so its last success moves with every run; degradedSince does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckStatusListSchema, type CheckStatus } from '../../../src/api/schemas/index.js';
import { degradedSince } from '../../../src/server/status/degraded-since.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

let svc: TestService;
let now = Date.now();
beforeAll(async () => {
  svc = await startTestService({ checks: 3, now: () => now });
});
afterAll(() => svc.close());

async function c1(): Promise<CheckStatus> {
  const res = await fetch(`${svc.url}/v1/check-statuses?limit=100`, {
    headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
  });
  expect(res.status).toBe(200);
  return CheckStatusListSchema.parse(await res.json()).data.find((x) => x.checkId === 'c1')!;
}
/** One run at each location, `ms` long, started a second before the service's now. */
const runs = async (ms: number, count = 1) => {
  for (const location of ['eu-west', 'us-east'])
    await svc.seed('c1', Array<'success'>(count).fill('success'), {
      location,
      responseTime: ms,
      endAt: now - 1_000,
      spacingMs: 1_000,
    });
};

describe('degradedSince', () => {
  it('is null while passing, set when the check turns slow, kept through later slow runs, null again on recovery', async () => {
    await runs(100, 3);
    expect(await c1()).toMatchObject({ status: 'passing', degradedSince: null });

    // Slower than its degradedMs (1000 ms) everywhere: degraded from this moment.
    now += 60_000;
    const turned = now;
    await runs(3_000, 3);
    const slow = await c1();
    expect(slow.status).toBe('degraded');
    expect(slow.degradedSince).toBe(new Date(turned).toISOString());
    // The alert policy's afterFailures rides along, for a screen to say why no page went out.
    expect(slow.alertAfterFailures).toBe(2);

    // Five minutes of slow runs later it still counts from when it turned.
    for (let i = 0; i < 5; i++) {
      now += 60_000;
      await runs(3_000);
    }
    const later = await c1();
    expect(later.status).toBe('degraded');
    expect(later.degradedSince).toBe(new Date(turned).toISOString());
    expect(Date.parse(later.lastExecution!.timestamp)).toBeGreaterThan(turned);

    now += 60_000;
    await runs(100, 3);
    expect(await c1()).toMatchObject({ status: 'passing', degradedSince: null });
  });
});

describe('degradedSince when the engine has not judged the check before (a start, a reload)', () => {
  const status = (value: CheckStatus['status'], locations: CheckStatus['status'][]) =>
    ({
      status: value,
      locations: locations.map((s, i) => ({ id: `l${i}`, name: `l${i}`, status: s, lastSuccess: null })),
    }) as CheckStatus;
  const run = (startedAt: number) => ({ startedAt, status: 'success' as const, responseTime: 3000 });
  const inputs = { recent: [[run(300), run(200), run(100)], [run(250)]] };

  it('counts from the oldest judged run of a location in trouble, else of any location', () => {
    expect(degradedSince(undefined, status('degraded', ['degraded', 'passing']), inputs, 999)).toBe(100);
    expect(degradedSince(undefined, status('degraded', ['passing', 'degraded']), inputs, 999)).toBe(250);
    // Degraded by availability alone: every location's runs witness it.
    expect(degradedSince(undefined, status('degraded', ['passing', 'passing']), inputs, 999)).toBe(100);
  });

  it('keeps what it knew, starts at now on a turn, and forgets on any other status', () => {
    expect(degradedSince(42, status('degraded', ['degraded', 'passing']), inputs, 999)).toBe(42);
    expect(degradedSince(null, status('degraded', ['degraded', 'passing']), inputs, 999)).toBe(999);
    expect(degradedSince(42, status('failing', ['failing', 'failing']), inputs, 999)).toBeNull();
  });
});

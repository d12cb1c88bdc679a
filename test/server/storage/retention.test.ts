// Retention: results older than retentionDays (default 30) are gone once the
// service has started; younger ones stay.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckResultListSchema } from '../../../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import {
  startTestService,
  testConfig,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestService,
} from '../../helpers/service.js';

const DAY = 86_400_000;
let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

async function kept(s: TestService): Promise<number> {
  const from = new Date(Date.now() - 400 * DAY).toISOString();
  const res = await fetch(`${s.url}/v1/check-results/c1?from=${from}&limit=100`, {
    headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
  });
  return CheckResultListSchema.parse(await res.json()).meta.totalItems;
}

describe('retention', () => {
  it.each([
    ['the default of 30 days', undefined, 2],
    ['retentionDays: 7', 7, 1],
  ])('keeps results for %s', async (_name, retentionDays, expected) => {
    expect(ServiceConfigSchema.parse({}).retentionDays).toBe(30);
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-')), 'retention.db');
    const config = { ...testConfig(), ...(retentionDays ? { retentionDays } : {}) };
    const first = await startTestService({ dbPath, config });
    const now = Date.now();
    for (const age of [31 * DAY, 29 * DAY, 3_600_000])
      await first.seed('c1', ['success'], { endAt: now - age });
    expect(await kept(first)).toBe(3); // pruning runs at start and hourly, not on insert
    await first.close();
    const s = (svc = await startTestService({ dbPath, config }));
    expect(await kept(s)).toBe(expected);
  });
});

describe('historyDays', () => {
  it('defaults to 400 and may not be shorter than retentionDays, with a message that says why', () => {
    expect(ServiceConfigSchema.parse({}).historyDays).toBe(400);
    expect(ServiceConfigSchema.parse({ retentionDays: 90, historyDays: 90 }).historyDays).toBe(90);
    const refused = ServiceConfigSchema.safeParse({ retentionDays: 30, historyDays: 7 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({
        path: ['historyDays'],
        message: 'must be at least retentionDays (30): history is kept at least as long as the results',
      }),
    ]);
  });
});

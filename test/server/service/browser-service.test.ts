// Browser checks inside the service: scheduled runs in the service's one
// Chromium, the browser gone when the service closes (and the profiles of
// browsers that went otherwise swept), the demo's journeys passing, and an
// honest "unknown" where no browser is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckResultListSchema, CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import { ServiceConfigSchema, type ServiceConfig } from '../../../src/server/config/schema.js';
import { demoConfig } from '../../../src/server/demo/config.js';
import { startDemoTargets, type DemoTargets } from '../../../src/server/demo/targets.js';
import { browserMissing, sweepStaleProfiles } from '../../../src/server/runners/browser-launch.js';
import { createRunner, isRunnable } from '../../../src/server/runners/index.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY } from '../../helpers/service.js';
import { call } from '../../helpers/http.js';

const missing = browserMissing();
if (missing) console.warn(`skipping the browser service tests: ${missing}`);
const auth = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

let page: Server;
let pageUrl = '';
beforeAll(async () => {
  page = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Shop</h1>'),
  );
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
});
afterAll(() => {
  page.closeAllConnections();
  page.close();
});

function browserConfig(): ServiceConfig {
  return ServiceConfigSchema.parse({
    accounts: [
      {
        id: TEST_ACCOUNT,
        apiKeys: [TEST_KEY],
        locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
        checks: [
          {
            id: 'shop',
            name: 'Shop page',
            type: 'browser',
            target: pageUrl,
            frequency: '1m',
            locations: ['eu-west'],
          },
        ],
      },
    ],
  });
}

const get = async (base: string, path: string) => (await call(base, 'GET', path)).body;

describe.skipIf(missing !== null)('browser checks in the service (real Chromium)', () => {
  it('runs a browser check on schedule, and the browser goes when the service closes', async () => {
    const svc = await startTestService({ config: browserConfig(), startScheduler: true });
    let results;
    await expect
      .poll(
        async () =>
          (results = CheckResultListSchema.parse(await get(svc.url, '/v1/check-results/shop'))).data,
        {
          timeout: 15_000,
        },
      )
      .toHaveLength(1);
    expect(results!.data[0]).toMatchObject({
      status: 'success',
      checkType: 'browser',
      response: { statusCode: 200 },
    });
    expect(results!.data[0]!.metrics?.['firstContentfulPaint']).toBeGreaterThan(0);
    const profiles = browserProfiles();
    expect(profiles).toHaveLength(1);
    await svc.close();
    expect(alive(profiles[0]!)).toEqual([]);
  });

  it("runs the demo's checkout page and signup journey, which pass, and its payment, which fails", async () => {
    const targets: DemoTargets = await startDemoTargets();
    const account = demoConfig(targets, { accountId: TEST_ACCOUNT, apiKey: TEST_KEY }).accounts[0]!;
    const runner = createRunner({ maxConcurrentBrowserRuns: 2 });
    const ctx = {
      maxStoredBodyBytes: 1024,
      signal: new AbortController().signal,
      now: Date.now,
    };
    try {
      for (const id of ['checkout-flow', 'signup-journey']) {
        const check = account.checks.find((c) => c.id === id)!;
        expect(check.frequency).toBe('60s');
        const r = await runner.run(account, check, account.locations[0]!, ctx, 'manual');
        expect(r.error).toBeUndefined();
        expect(r.status).toBe('success');
        expect(r.metrics?.['largestContentfulPaint']).toBeGreaterThan(0);
      }
      // The payment journey fails at its last step on purpose, with a picture of the banner.
      const payment = account.checks.find((c) => c.id === 'checkout-payment')!;
      const r = await runner.run(account, payment, account.locations[0]!, ctx, 'manual');
      expect(r.error?.message).toMatch(
        /^step 4 of 4 \(assertText "Payment accepted" in "#payment"\): expected text containing "Payment accepted", found "Payment failed/,
      );
      expect(r.hasScreenshot).toBe(true);
      expect(r.screenshot?.length).toBeGreaterThan(1000);
    } finally {
      await runner.close();
      await targets.close();
    }
  });
});

describe.skipIf(missing !== null)('screenshots of failed browser runs (real Chromium)', () => {
  const RED = '<body style="margin:0;background:#e00000"><h1 style="color:#fff">Checkout is down</h1></body>';
  let red: Server;
  let redUrl = '';
  beforeAll(async () => {
    red = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(RED));
    await new Promise<void>((r) => red.listen(0, '127.0.0.1', r));
    redUrl = `http://127.0.0.1:${(red.address() as AddressInfo).port}/`;
  });
  afterAll(() => {
    red.closeAllConnections();
    red.close();
  });

  function config(): ServiceConfig {
    const base = browserConfig();
    base.accounts[0]!.checks.push(
      ServiceConfigSchema.parse({
        accounts: [
          {
            id: TEST_ACCOUNT,
            apiKeys: [TEST_KEY],
            locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
            checks: [
              {
                id: 'pay',
                name: 'Pay',
                type: 'multistep',
                target: redUrl,
                timeoutMs: 5000,
                locations: ['eu-west'],
                steps: [{ action: 'click', selector: '#pay' }],
              },
            ],
          },
        ],
      }).accounts[0]!.checks[0]!,
    );
    return base;
  }

  it("serves a failed step's screenshot as PNG, and 404 for a run without one", async () => {
    const svc = await startTestService({ config: config(), startScheduler: true });
    try {
      const results = async (id: string) =>
        CheckResultListSchema.parse(await get(svc.url, `/v1/check-results/${id}`)).data;
      await expect.poll(() => results('pay'), { timeout: 20_000 }).toHaveLength(1);
      await expect.poll(() => results('shop'), { timeout: 20_000 }).toHaveLength(1);
      const [failed] = await results('pay');
      expect(failed).toMatchObject({ status: 'failed', hasScreenshot: true });
      expect(failed!.error?.message).toMatch(/^step 1 of 1 \(click "#pay"\)/);
      const path = `/v1/check-results/pay/${failed!.id}/screenshot`;
      const res = await fetch(svc.url + path, { headers: auth });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(redShare(Buffer.from(await res.arrayBuffer()))).toBeGreaterThan(0.8);

      expect((await fetch(svc.url + path)).status).toBe(401);
      const [passed] = await results('shop');
      expect(passed).toMatchObject({ status: 'success', hasScreenshot: false });
      const none = await fetch(`${svc.url}/v1/check-results/shop/${passed!.id}/screenshot`, {
        headers: auth,
      });
      expect(none.status).toBe(404);
      expect(((await none.json()) as { message: string }).message).toContain('no screenshot');
      const elsewhere = await fetch(`${svc.url}/v1/check-results/shop/${failed!.id}/screenshot`, {
        headers: auth,
      });
      expect(elsewhere.status).toBe(404);
    } finally {
      await svc.close();
    }
  });
});

/** The share of pixels close to pure red. */
function redShare(png: Buffer): number {
  const { data, width, height } = PNG.sync.read(png);
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! > 200 && data[i + 1]! < 40 && data[i + 2]! < 40) n++;
  return n / (width * height);
}

describe('browser checks without a browser', () => {
  const saved = process.env['CHECKWALL_CHROMIUM'];
  beforeAll(() => void (process.env['CHECKWALL_CHROMIUM'] = '/nonexistent/chromium'));
  afterAll(() => {
    if (saved === undefined) delete process.env['CHECKWALL_CHROMIUM'];
    else process.env['CHECKWALL_CHROMIUM'] = saved;
  });

  it('are not runnable, and say which browser is missing and how to install it', async () => {
    expect(isRunnable({ type: 'browser' })).toBe(false);
    expect(isRunnable({ type: 'multistep' })).toBe(false);
    expect(isRunnable({ type: 'api' })).toBe(true);
    const svc = await startTestService({ config: browserConfig(), startScheduler: true });
    try {
      const list = CheckStatusListSchema.parse(await get(svc.url, '/v1/check-statuses'));
      const shop = list.data.find((s) => s.checkId === 'shop')!;
      expect(shop.status).toBe('unknown');
      expect(shop.statusReason).toContain('no browser at /nonexistent/chromium');
      expect(shop.statusReason).toContain('apt-get install -y chromium');
      expect(shop.schedule.nextRun).toBeNull();
      const results = CheckResultListSchema.parse(await get(svc.url, '/v1/check-results/shop'));
      expect(results.data).toEqual([]);
    } finally {
      await svc.close();
    }
  });
});

describe('browser profiles', () => {
  it('sweeps what browsers that are gone left behind, and keeps live and fresh ones', async () => {
    const base = mkdtempSync(join(tmpdir(), 'checkwall-sweep-test-')); // apart from live tests' profiles
    // Playwright's profile holds Chromium's SingletonLock ("host-pid"); our launcher names its owner.
    const profile = (lockedBy?: number) => {
      const dir = mkdtempSync(join(base, 'playwright_chromiumdev_profile-'));
      if (lockedBy !== undefined) symlinkSync(`${hostname()}-${lockedBy}`, join(dir, 'SingletonLock'));
      return dir;
    };
    const launcher = (owner: number) => {
      const dir = mkdtempSync(join(base, 'checkwall-chromium-'));
      writeFileSync(join(dir, 'owner'), String(owner));
      return dir;
    };
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    const stale = [profile(deadPid), launcher(deadPid)];
    const live = [profile(process.pid), launcher(process.pid)];
    const fresh = profile();
    const unrelated = mkdtempSync(join(base, 'someone-else-'));
    await sweepStaleProfiles(base);
    expect([...stale, ...live, fresh, unrelated].map(existsSync)).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    await sweepStaleProfiles(base, Date.now() + 120_000); // a lockless profile is stale once it is old
    expect([...live, fresh, unrelated].map(existsSync)).toEqual([true, true, false, true]);
    rmSync(base, { recursive: true, force: true });
  });
});

/** Profiles of the Chromium processes this test process started (each run has its own). */
function browserProfiles(): string[] {
  return pgrep(['-P', String(process.pid)])
    .map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'))
    .map((argv) => argv.find((a) => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length))
    .filter((dir): dir is string => dir !== undefined);
}

/** Live (not zombie) processes of one browser: every one of them carries its profile path. */
const alive = (profile: string) => pgrep(['-f', '--', profile]);

function pgrep(args: string[]): string[] {
  try {
    return execFileSync('pgrep', args, { encoding: 'utf8' }).trim().split('\n');
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

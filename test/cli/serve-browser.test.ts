// The built `checkwall serve` with a browser check: its Chromium runs at a
// background priority, and a service killed with SIGKILL (no chance to clean
// up) leaves no browser process behind.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CheckResultListSchema } from '../../src/api/schemas/index.js';
import { browserMissing } from '../../src/server/runners/browser-launch.js';
import { startFixture, type Fixture } from '../helpers/fixture.js';
import { killStrays, startServe, writeConfig } from '../helpers/serve.js';
import { TEST_ACCOUNT, TEST_KEY } from '../helpers/service.js';

const missing = browserMissing();
if (missing) console.warn(`skipping the serve browser tests: ${missing}`);

let page: Fixture;
beforeAll(async () => {
  page = await startFixture((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Shop</h1>');
  });
});
afterAll(() => page.close());
afterEach(killStrays);

const config = () => `accounts:
  - id: ${TEST_ACCOUNT}
    apiKeys: [${TEST_KEY}]
    locations: [{ id: eu-west, name: Frankfurt, region: eu-central-1 }]
    checks:
      - { id: shop, name: Shop, type: browser, target: "${page.url}/", frequency: 1m, locations: [eu-west] }
`;

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  nice: number;
  argv: string[];
}

/** Every live process, from /proc (zombies left out: they are dead, only not yet reaped). */
function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may hold spaces.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (f[0] === 'Z') continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      out.push({ pid: Number(name), ppid: Number(f[1]), pgid: Number(f[2]), nice: Number(f[16]), argv });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return out;
}

describe.skipIf(missing !== null)('checkwall serve with a browser check (built program)', () => {
  it('runs Chromium at nice 10, and leaves none behind when killed with SIGKILL', async () => {
    const serve = await startServe([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--config',
      writeConfig('c.yaml', config()),
    ]);
    const headers = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };
    const results = async () => {
      const res = await fetch(`${serve.url}/v1/check-results/shop`, { headers });
      return CheckResultListSchema.parse(await res.json()).data;
    };
    await expect.poll(results, { timeout: 30_000 }).toHaveLength(1);
    const browser = processes().find(
      (p) => p.ppid === serve.child.pid && p.argv.some((a) => a.includes('chromium')),
    );
    expect(browser).toBeDefined();
    const profile = browser!.argv.find((a) => a.startsWith('--user-data-dir='))!;
    expect(profile).toMatch(/^--user-data-dir=./);
    const ours = () => processes().filter((p) => p.pgid === browser!.pid || p.argv.includes(profile));
    expect(ours().length).toBeGreaterThan(1); // the browser and its helpers (zygotes, renderers)
    expect(Math.min(...ours().map((p) => p.nice))).toBeGreaterThanOrEqual(10);

    await serve.stop('SIGKILL');
    await expect.poll(() => ours().map((p) => `${p.pid} ${p.argv[0]}`), { timeout: 15_000 }).toEqual([]);
  });
});

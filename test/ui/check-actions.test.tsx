// Acting on a check from the console (issue 32), with a real store and poller on
// the real service: ctrl+r asks, runs, follows each location's run and selects
// the newest result; z asks, pauses (the header says by whom, since when) and
// resumes; a paused check's run now shows the service's 409; the audit trail
// lists who did what; a read key is not offered the actions and ? says why.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { ServiceConfigSchema } from '../../src/server/config/schema.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { accountFeeds } from '../../src/store/feeds/index.js';
import { startFixture, type Fixture } from '../helpers/fixture.js';
import { mountConsole, type MountedConsole } from '../helpers/console.js';
import { startTestService, TEST_ACCOUNT, type TestService } from '../helpers/service.js';

const OPERATE_KEY = 'cw_operate_0123456789abcdef';
const READ_KEY = 'cw_read_0123456789abcdef';
const CTRL_R = '\u0012';

let svc: TestService;
let target: Fixture;
let mounted: MountedConsole | undefined;
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = () => (mounted?.view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');

beforeAll(async () => {
  target = await startFixture((_req, res) => void res.writeHead(200).end('ok'));
  svc = await startTestService({
    startScheduler: true,
    config: ServiceConfigSchema.parse({
      accounts: [
        {
          id: TEST_ACCOUNT,
          apiKeys: [
            { key: OPERATE_KEY, name: 'oncall', role: 'operate' },
            { key: READ_KEY, name: 'wall', role: 'read' },
          ],
          locations: [
            { id: 'near', name: 'Near', region: 'here' },
            { id: 'next', name: 'Next door', region: 'here' },
          ],
          checks: [
            {
              id: 'c1',
              name: 'Payments',
              type: 'api',
              target: `${target.url}/health`,
              frequency: '1h',
              locations: ['near', 'next'],
            },
          ],
        },
      ],
    }),
  });
}, 60_000);
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});
afterAll(async () => {
  await svc.close();
  await target.close();
});

async function consoleWith(apiKey: string): Promise<ConsoleStore> {
  const store = createConsoleStore({ refreshMs: 60_000 });
  store.getState().setSize(120, 40);
  mounted = mountConsole(
    store,
    createClient({ baseUrl: svc.url, apiKey, accountId: TEST_ACCOUNT }),
    accountFeeds(),
  );
  await expect.poll(() => store.getState().checks['c1']?.checkName, { timeout: 20_000 }).toBe('Payments');
  await expect.poll(() => store.getState().me?.role).toBeDefined();
  return store;
}

describe('acting on a check with an operate key', { timeout: 60_000 }, () => {
  it('runs it now from the check view: asks, follows each location, selects the newest result', async () => {
    const store = await consoleWith(OPERATE_KEY);
    expect(store.getState().me).toMatchObject({ keyName: 'oncall', role: 'operate' });
    store.getState().openCheck('c1', false);
    await expect.poll(plain).toContain('Actions ');
    await expect.poll(plain, { timeout: 10_000 }).toMatch(/30 days .*█≥99\.9/);

    mounted!.view.stdin.write(CTRL_R);
    await expect.poll(plain).toContain('Run Payments now at 2 locations?  y/enter yes  n/esc no');
    mounted!.view.stdin.write('y');
    await expect
      .poll(plain, { timeout: 20_000 })
      .toMatch(/Payments now: {2}near ✔ passed {2}next ✔ passed {2}all in/);
    const watch = store.getState().runWatch!;
    expect(watch.runs.map((r) => r.triggeredBy)).toEqual(['manual', 'manual']);
    const newest = watch.landed[watch.landed.length - 1];
    await expect
      .poll(() => store.getState().stack.findLast((v) => v.name === 'check'))
      .toMatchObject({ selectedResultId: newest });
    // The results list has the manual runs; the audit trail names the key.
    await expect.poll(plain).toMatch(/Actions\s+\S+ ago\s+oncall\s+ran it now \(manual\) at near, next/);
  });

  it('pauses with z (asked first), shows who and since when, refuses a run now with the service’s words, resumes', async () => {
    const store = await consoleWith(OPERATE_KEY);
    store.getState().openCheck('c1', false);
    await expect.poll(plain).toContain('Payments');

    mounted!.view.stdin.write('z');
    await expect.poll(plain).toContain('Pause Payments? It stops running until someone resumes it.');
    mounted!.view.stdin.write('n');
    await expect.poll(plain).not.toContain('Pause Payments?');
    expect(store.getState().checks['c1']?.paused ?? null).toBeNull();

    mounted!.view.stdin.write('z');
    await expect.poll(plain).toContain('Pause Payments?');
    mounted!.view.stdin.write('y');
    await expect.poll(plain).toMatch(/paused by oncall since \d{4}-\d\d-\d\d \d\d:\d\d UTC \(for \d+s\)/);
    await expect.poll(plain).toMatch(/oncall\s+paused it/);

    mounted!.view.stdin.write(CTRL_R);
    await expect.poll(plain).toContain('Run Payments now at 2 locations?');
    mounted!.view.stdin.write('y');
    await expect.poll(plain).toMatch(/could not run Payments now: check "c1" is paused by oncall since/);

    mounted!.view.stdin.write('z');
    await expect.poll(plain).toContain('Resume Payments? It runs within a few seconds');
    mounted!.view.stdin.write('y');
    await expect.poll(plain).toContain('Payments resumed: it runs within a few seconds');
    expect(plain()).not.toContain('paused by oncall since');
    await expect.poll(plain).toMatch(/oncall\s+resumed it/);
  });
});

describe('acting on a check with a read key', { timeout: 60_000 }, () => {
  it('does not ask: ctrl+r and z say the key is read, and ? says why', async () => {
    const store = await consoleWith(READ_KEY);
    expect(store.getState().me?.role).toBe('read');
    mounted!.view.stdin.write(CTRL_R);
    await expect.poll(plain).toContain('ctrl+r: needs an operate key; this key is read');
    expect(store.getState().keyRefusal).toBe('ctrl+r: needs an operate key; this key is read');
    expect(store.getState().checkAction.state).toBe('idle');
    store.getState().openCheck('c1', false);
    mounted!.view.stdin.write('z');
    await expect.poll(plain).toContain('z: needs an operate key; this key is read');
    expect(plain()).not.toContain('Pause Payments?');
    mounted!.view.stdin.write('?');
    await expect.poll(plain).toContain('M, a, ctrl+r, z, v, e, +: need an operate key; this key is read');
  });
});

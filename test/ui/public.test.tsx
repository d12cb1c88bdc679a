// A public dashboard in the console: read without credentials, and every view
// that would need them says so plainly instead of erroring.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type MonitoringClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { publicFeeds } from '../../src/store/feeds/index.js';
import { mountConsole, type MountedConsole } from '../helpers/console.js';
import { widgetsConfig } from '../helpers/dashboards.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let client: MonitoringClient;
let store: ConsoleStore;
let view: MountedConsole['view'];
let mounted: MountedConsole;
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = () => (view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const keys = (...chunks: string[]) => chunks.forEach((c) => view.stdin.write(c));

beforeAll(async () => {
  svc = await startTestService({ config: widgetsConfig(8) });
  await svc.seed('c4', ['failed', 'failed']);
  client = createClient({ baseUrl: svc.url });
  store = createConsoleStore(
    { refreshMs: 60_000, label: 'public', host: 'svc', isPublic: true },
    { name: 'dashboard', dashboard: null, scope: null },
  );
  store.getState().setSize(100, 36);
  mounted = mountConsole(store, client, publicFeeds('widgets'), { color: false });
  view = mounted.view;
  await vi.waitFor(() => {
    if (Object.keys(store.getState().checks).length !== 4) throw new Error('not loaded yet');
  });
});
afterAll(async () => {
  await mounted.close();
  await svc.close();
});

describe('a public dashboard', () => {
  it('shows public and the dashboard’s name, its counts and its checks', async () => {
    await expect.poll(plain).toContain('Check 0004');
    const frame = plain();
    expect(frame).toContain('Checkwall ─ public ─ Widgets');
    expect(frame).toMatch(/✖ 1 failing 25\.0%/);
    expect(frame).toContain('a public dashboard cannot show check results, so there is no chart');
    expect(frame).toContain('unsupported widget: heatmap');
    expect(frame).not.toContain('Check 0003');
  });

  it('says plainly what it cannot show: results, metrics, channels, other dashboards', async () => {
    store.getState().select('c4');
    keys('\r');
    await expect.poll(plain).toContain('A public dashboard cannot show check results.');
    keys('\u001b');
    await expect.poll(plain).toContain('Check 0004');
    for (const [name, what] of [
      ['channels', 'alert channels'],
      ['metrics', 'the metric catalogue'],
      ['dashboards', 'the account’s other dashboards'],
    ]) {
      keys(':', name!, '\r');
      await expect.poll(plain).toContain(`A public dashboard cannot show ${what}.`);
      keys('\u001b');
      await expect.poll(plain).toContain('Check 0004');
    }
    // The root of a public console is its dashboard: esc there keeps it.
    keys('\u001b');
    expect(store.getState().stack).toHaveLength(1);
    expect(store.getState().lastError).toBeNull();
  });
});

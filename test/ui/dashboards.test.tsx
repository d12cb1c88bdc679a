// Dashboard frames with a real store, fed by the poller from the real service.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type MonitoringClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { ACCOUNT_FEEDS } from '../../src/store/feeds/index.js';
import { selectScope } from '../../src/store/selectors.js';
import { mountConsole, type MountedConsole } from '../helpers/console.js';
import { widgetsConfig } from '../helpers/dashboards.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let client: MonitoringClient;
let store: ConsoleStore;
let view: MountedConsole['view'];
let mounted: MountedConsole;
/* eslint-disable no-control-regex -- reading the text without colour codes and links */
const plain = () =>
  (view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '').replace(/\u001b\]8;;[^\u0007]*\u0007/g, '');
/* eslint-enable no-control-regex */
const keys = (...chunks: string[]) => chunks.forEach((c) => view.stdin.write(c));
const top = () => store.getState().stack.at(-1)?.name;

beforeAll(async () => {
  svc = await startTestService({ config: widgetsConfig(8) });
  await svc.seed('c2', ['success', 'success', 'success'], { responseTime: 200 });
  await svc.seed('c4', ['success', 'failed', 'failed'], { responseTime: 400 });
  await svc.seed('c3', ['success'], { responseTime: 999 });
  svc.engine.rereadAll();
  client = createClient({ baseUrl: svc.url, ...svc.credentials });
  store = createConsoleStore({ refreshMs: 60_000, label: 'test', host: 'svc', baseUrl: svc.url });
  store.getState().setSize(120, 40);
  mounted = mountConsole(store, client, ACCOUNT_FEEDS, { links: true });
  view = mounted.view;
  await vi.waitFor(() => {
    if (Object.keys(store.getState().checks).length !== 8) throw new Error('statuses not loaded yet');
  });
});
afterAll(async () => {
  await mounted.close();
  await svc.close();
});

describe('dashboards in the console', () => {
  it('lists dashboards with access, reach, tags, URL and description', async () => {
    keys(':', 'dash', '\r');
    await expect.poll(plain).toContain('Widgets');
    const row = plain()
      .split('\n')
      .find((l) => l.includes('Widgets'))!;
    expect(row).toMatch(/Widgets\s+public\s+1 \+ 1 grp\s+ops,demo\s+widgets\s+.*every widget kind/);
    expect(plain()).toMatch(/Operations\s+private/);
    // A public dashboard's URL is a link to its status page at the service, closed in its column;
    // a private one links nowhere.
    const frame = view.lastFrame() ?? '';
    const page = `${svc.url}/status/widgets`;
    expect(frame).toContain(`\u001b]8;;${page}\u0007widgets\u001b]8;;\u0007`);
    const operations = frame.split('\n').find((l) => l.includes('Operations'))!;
    expect(operations).not.toContain('\u001b]8;;');
    keys('x');
    await expect.poll(plain).toContain('private only');
    await expect.poll(plain).not.toContain('Widgets');
    keys('x', 'x', '/', 'demo', '\r');
    await expect.poll(plain).toContain('tags: demo');
    await expect.poll(plain).not.toContain('Operations');
  });

  it('opens a dashboard: its name in the header, its widgets, and exactly its checks grouped by type', async () => {
    keys('\r');
    await expect.poll(() => top()).toBe('dashboard');
    await expect.poll(plain).toContain('All checks');
    await expect.poll(plain).toMatch(/Average response time over 1h: \d+ ms/);
    const frame = plain();
    expect(frame).toContain('test ─ Widgets');
    expect(frame).toMatch(
      /✖ 1 failing 25\.0%\s+▲ 0 degraded 0\.0%\s+\? 2 unknown 50\.0%\s+✔ 1 passing 25\.0%/,
    );
    expect(frame).toContain('unsupported widget: heatmap');
    expect(frame).toMatch(/Check 0002\s+█+ 200 ms/);
    expect(frame).toMatch(/Check 0004\s+█+ 400 ms/);
    expect(frame).toContain('LAST RESULT');
    expect(frame).toMatch(/✖ 400 ms/);
    expect(frame).toMatch(/api \(4\)/);
    expect(frame).not.toMatch(/tcp/);
    // Rows of the list (a status word, then the name): the chart's bars name checks too.
    const shown = frame
      .split('\n')
      .map((l) => /(FAILING|DEGRADED|UNKNOWN|STARTING|passing)\s+!?\s*Check (\d{4})/.exec(l)?.[2])
      .filter(Boolean)
      .sort();
    expect(shown).toEqual(['0001', '0002', '0004', '0007']);
    expect(frame.split('\n').length).toBeLessThanOrEqual(40);
  });

  it('drills into a check and back to the dashboard, and esc returns to the list with the selection kept', async () => {
    keys('\r');
    await expect.poll(() => top()).toBe('check');
    keys('\u001b');
    await expect.poll(plain).toContain('unsupported widget: heatmap');
    keys('\u001b');
    await expect.poll(() => top()).toBe('dashboards');
    expect(store.getState().lists.dashboards.selectedId).toBe('widgets');
    expect(selectScope(store.getState())).toBeNull();
    await expect.poll(plain).toMatch(/› Widgets/);
  });

  it('fits 80x24 with every widget', async () => {
    store.getState().setSize(80, 24);
    keys('\r');
    await expect.poll(plain).toContain('unsupported widget: heatmap');
    await expect.poll(plain).toMatch(/Check 0004/);
    expect(plain().split('\n').length).toBeLessThanOrEqual(24);
    expect(plain()).toContain('Widgets');
  });
});

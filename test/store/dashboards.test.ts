// Dashboards through the store and the poller against the project's service:
// the list's filters go to the API, a dashboard scopes the board to exactly its
// checks, and a public dashboard is read without credentials.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { ACCOUNT_FEEDS, publicFeeds } from '../../src/store/feeds/index.js';
import { steadyInterval } from '../../src/store/feeds/statuses-feed.js';
import { createPoller, type Feed } from '../../src/store/poller.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { selectBoardOrder, selectDashboard, selectScope } from '../../src/store/selectors.js';
import { widgetsConfig } from '../helpers/dashboards.js';
import { startTestService, type TestService } from '../helpers/service.js';

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

async function start(opts: { credentials?: boolean; feeds?: readonly Feed[] } = {}) {
  const svc: TestService = await startTestService({ config: widgetsConfig(8) });
  cleanup.push(() => svc.close());
  const client = createClient({ baseUrl: svc.url, ...(opts.credentials === false ? {} : svc.credentials) });
  // `checkwall --public` opens on the dashboard's view (commands/public.ts).
  const store = createConsoleStore(
    { refreshMs: 10_000 },
    opts.credentials === false ? { name: 'dashboard', dashboard: null, scope: null } : undefined,
  );
  const poller = createPoller({
    store,
    client,
    feeds: [...(opts.feeds ?? ACCOUNT_FEEDS)],
    tickMs: 0,
    clock: createFakeClock(),
  });
  cleanup.push(
    () => poller.stop(),
    () => client.close(),
  );
  return { svc, store };
}

const names = (store: ConsoleStore) => {
  const r = store.getState().lists.dashboards.remote;
  return r.state === 'ok' ? r.data.data.map((d) => d.id) : [];
};

describe('dashboards in the store', () => {
  it('asks the service for tags and privacy, and pages', async () => {
    const { store } = await start();
    store.getState().pushView({ name: 'dashboards' });
    await expect.poll(() => names(store)).toEqual(['ops', 'public', 'widgets']);
    store.getState().cyclePrivacy();
    await expect.poll(() => names(store)).toEqual(['ops']);
    store.getState().cyclePrivacy();
    await expect.poll(() => names(store)).toEqual(['public', 'widgets']);
    store.getState().cyclePrivacy();
    store.getState().openDashboardTags();
    store.getState().setDashboardTags('demo, nothing');
    store.getState().closeDashboardTags(false);
    expect(store.getState().lists.dashboards.query.tags).toEqual(['demo', 'nothing']);
    await expect.poll(() => names(store)).toEqual(['widgets']);
    store.getState().closeDashboardTags(true);
    await expect.poll(() => names(store)).toEqual(['ops', 'public', 'widgets']);
    store.getState().pageList('dashboards', 1); // one page only: stays on it
    expect(store.getState().lists.dashboards.query.page).toBe(1);
  });

  it('scopes the board to exactly the dashboard’s checks and the members of its groups, and esc ends it', async () => {
    const { store } = await start();
    await expect.poll(() => Object.keys(store.getState().checks).length).toBe(8);
    store.getState().pushView({ name: 'dashboards' });
    await expect.poll(() => names(store).length).toBe(3);
    store.getState().moveInList('dashboards', 'last');
    store.getState().openDashboard();
    expect(selectDashboard(store.getState())?.id).toBe('widgets');
    // c2 by id; c1, c4 and c7 are the edge group (i % 3 === 0).
    expect([...selectBoardOrder(store.getState())].sort()).toEqual(['c1', 'c2', 'c4', 'c7']);
    expect(selectBoardOrder(store.getState())).toContain(store.getState().selectedId);
    // The dashboard's refreshInterval (120 s) is slower than the console's 10 s: it wins while shown.
    expect(steadyInterval(store.getState())).toBe(120_000);
    store.getState().openCheck('c4', false);
    store.getState().popView();
    expect(selectScope(store.getState())?.name).toBe('Widgets');
    store.getState().popView();
    expect(store.getState().stack.at(-1)?.name).toBe('dashboards');
    expect(selectScope(store.getState())).toBeNull();
    expect(store.getState().lists.dashboards.selectedId).toBe('widgets');
    expect(selectBoardOrder(store.getState())).toHaveLength(8);
    expect(steadyInterval(store.getState())).toBe(10_000);
  });

  it('reads the runs behind a metrics chart for the dashboard’s checks only', async () => {
    const { svc, store } = await start();
    await svc.seed('c2', ['success', 'success'], { responseTime: 200 });
    await svc.seed('c4', ['success', 'failed'], { responseTime: 400 });
    await svc.seed('c3', ['success'], { responseTime: 999 });
    await expect.poll(() => Object.keys(store.getState().checks).length).toBe(8);
    store.getState().pushView({ name: 'dashboards' });
    await expect.poll(() => names(store).length).toBe(3);
    store.getState().moveInList('dashboards', 'last');
    store.getState().openDashboard();
    const chart = () => {
      const r = store.getState().charts['1h'];
      return r?.state === 'ok' ? r.data : undefined;
    };
    await expect.poll(() => chart()?.checks.length).toBe(4);
    const byId = Object.fromEntries(chart()!.checks.map((c) => [c.checkId, c.results.length]));
    expect(byId).toEqual({ c1: 0, c2: 2, c4: 2, c7: 0 });
    expect(chart()!.leftOut).toBe(0);
  });

  it('reads a public dashboard without credentials: its checks and nothing else', async () => {
    const { svc, store } = await start({ credentials: false, feeds: publicFeeds('widgets') });
    await svc.seed('c2', ['failed', 'failed']);
    await expect.poll(() => selectDashboard(store.getState())?.name).toBe('Widgets');
    expect(Object.keys(store.getState().checks).sort()).toEqual(['c1', 'c2', 'c4', 'c7']);
    expect(store.getState().summary?.totalChecks).toBe(4);
    expect(store.getState().phase).toBe('live');
  });

  it('says why a private slug cannot be read publicly', async () => {
    const { store } = await start({ credentials: false, feeds: publicFeeds('ops') });
    await expect.poll(() => store.getState().lastError?.status).toBe(404);
    expect(store.getState().lastError?.message).toContain('no public dashboard at "ops"');
    expect(store.getState().checks).toEqual({});
  });
});

// Nothing empty drawn as a number (issue 36): frames of the check view with a
// real store fed sample pages, at 100x34.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult, CheckResultList, ResultsSummary } from '../../src/api/schemas/index.js';
import { createConsoleStore } from '../../src/store/create-store.js';
import { scopeOf } from '../../src/store/dashboards-slice.js';
import { DEFAULT_FILTERS } from '../../src/store/detail-slice.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleDashboard, sampleResult, sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

function list(data: CheckResult[], summary: Partial<ResultsSummary>): CheckResultList {
  return {
    data,
    meta: {
      checkId: 'c1',
      checkName: 'Check c1',
      currentPage: 1,
      totalPages: data.length === 0 ? 0 : 1,
      totalItems: data.length,
      limit: 20,
      hasMore: false,
      timeframe: { from: '2026-11-21T10:00:00.000Z', to: '2026-11-22T10:00:00.000Z' },
      summary: {
        totalRuns: data.length,
        successfulRuns: data.filter((r) => r.status === 'success').length,
        failedRuns: data.filter((r) => r.status === 'failed').length,
        successRate: 0,
        averageResponseTime: 0,
        p95ResponseTime: 0,
        p99ResponseTime: 0,
        ...summary,
      },
    },
  };
}

function openCheck(checkType: string, cols = 100, rows = 34) {
  const store = createConsoleStore({ label: 'prod' });
  store.getState().setSize(cols, rows);
  store.getState().applyStatuses([sampleStatus('c1', { checkType })], sampleSummary(), Date.now());
  store.getState().openCheck('c1', false);
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
  );
  unmount = view.unmount;
  return { store, frame: () => plain(view.lastFrame()) };
}

const runs = (n: number, overrides: Partial<CheckResult> = {}) =>
  Array.from({ length: n }, (_, i) =>
    sampleResult(`r${i}`, {
      startedAt: new Date(Date.parse('2026-11-22T09:00:00Z') + i * 60_000).toISOString(),
      ...overrides,
    }),
  );

describe('empty data is —, never a number', () => {
  it('a filtered list with no runs shows no success 0.00% / avg 0 ms, and no sparkline of other runs', async () => {
    const { store, frame } = openCheck('api');
    const all = runs(5);
    store
      .getState()
      .applyResults(
        'c1',
        list(all, { successRate: 100, averageResponseTime: 150 }),
        list(all, {}),
        null,
        Date.now(),
      );
    await expect.poll(frame).toMatch(/5 runs\s+0 failed/);
    store.getState().setResultFilters({ status: 'failed' });
    store.getState().applyResults('c1', list([], {}), list(all, {}), null, Date.now());
    await expect.poll(frame).toContain('no runs in this period with these filters');
    const shown = frame();
    expect(shown).not.toContain('0.00%');
    expect(shown).not.toMatch(/avg 0 ms|p95 0 ms/);
    expect(shown).toMatch(/response\s+—/);
    expect(shown).not.toMatch(/response\s+[▁▂▃▄▅▆▇█]/);
  });

  it('every run failed: the summary gives no avg 0 ms / p95 0 ms, as the header says — (80x24)', async () => {
    const { store, frame } = openCheck('api', 80, 24);
    const failed = runs(3, { status: 'failed' });
    store.getState().applyResults('c1', list(failed, {}), list(failed, {}), null, Date.now());
    await expect.poll(frame).toMatch(/3 runs\s+3 failed/);
    expect(frame()).toMatch(/avg —\s+p95 —\s+p99 —/);
    expect(frame()).not.toMatch(/avg 0 ms|p95 0 ms|p99 0 ms/);
  });

  it('says "1 run", not "1 runs"', async () => {
    const { store, frame } = openCheck('api');
    const one = runs(1);
    store.getState().applyResults('c1', list(one, { successRate: 100 }), list(one, {}), null, Date.now());
    await expect.poll(frame).toMatch(/\b1 run\s+0 failed/);
    expect(frame()).not.toContain('1 runs');
  });

  it('a heartbeat has no response time: no avg / p95, and its good pings are not drawn as ✕', async () => {
    const { store, frame } = openCheck('heartbeat');
    const pings = runs(4, { checkType: 'heartbeat', response: null, duration: 0 });
    store
      .getState()
      .applyResults(
        'c1',
        list(pings, { successRate: 100, p95ResponseTime: 1 }),
        list(pings, {}),
        null,
        Date.now(),
      );
    await expect.poll(frame).toMatch(/4 pings\s+0 failed\s+success 100%/);
    const shown = frame();
    expect(shown).not.toMatch(/avg \d+ ms|p95 \d+ ms/);
    expect(shown).toMatch(/pings\s+●●●●/);
    expect(shown).not.toContain('✕');
  });
});

describe('a heartbeat check’s results', () => {
  it('say how long each job ran and its exit code, not the 0 ms and status 0 of its ping', async () => {
    const { store, frame } = openCheck('heartbeat');
    // As the service records a ping: a response with status 0, 0 ms.
    const ping = { statusCode: 0, statusText: 'success', headers: {}, body: '', responseTime: 0, size: 0 };
    const started = '2026-11-22T09:00:00.000Z';
    const timed = sampleResult('timed', {
      checkType: 'heartbeat',
      startedAt: started,
      duration: 90_000,
      response: { ...ping, statusCode: 3, statusText: 'exit 3' },
      heartbeat: { end: 'exit', exitCode: 3, startedAt: started, rid: null },
    });
    const bare = sampleResult('bare', {
      checkType: 'heartbeat',
      startedAt: '2026-11-22T08:00:00.000Z',
      duration: 0,
      response: ping,
      heartbeat: { end: 'success', exitCode: null, startedAt: null, rid: null },
    });
    store.getState().applyResults('c1', list([timed, bare], {}), list([timed, bare], {}), null, Date.now());
    await expect.poll(frame).toContain('STARTED');
    const row = (clock: string) =>
      frame()
        .split('\n')
        .find((l) => l.includes(clock)) ?? '';
    expect(row('09:00:00')).toMatch(/1\.5 min +3\b/);
    expect(row('08:00:00')).toMatch(/ok +— +— /);
    expect(frame()).not.toMatch(/0 ms/);
  });
});

const dashboard = sampleDashboard({
  checkIds: ['beat', 'api'],
  widgets: [
    {
      type: 'metrics_chart',
      position: 1,
      title: 'Speed',
      settings: { metric: 'averageResponseTime', timeRange: '1h' },
    },
  ],
});

describe('a dashboard chart', () => {
  it('draws a check with no response time as —, not 0 ms, under a human title (120x30)', async () => {
    const store = createConsoleStore({ label: 'prod' });
    store.getState().setSize(120, 30);
    const beat = sampleStatus('beat', { checkName: 'Nightly job', checkType: 'heartbeat' });
    const api = sampleStatus('api', { checkName: 'Search API' });
    store.getState().applyStatuses([beat, api], sampleSummary({ totalChecks: 2, passing: 2 }), Date.now());
    store.getState().pushView({ name: 'dashboard', dashboard, scope: scopeOf(dashboard) });
    const pings = runs(3, { checkType: 'heartbeat', response: null, duration: 0 });
    const calls = runs(3);
    const to = Date.parse('2026-11-22T10:00:00Z');
    store.getState().setChart('1h', {
      state: 'ok',
      at: to,
      data: {
        from: to - 3_600_000,
        to,
        leftOut: 0,
        checks: [
          {
            checkId: 'beat',
            checkName: 'Nightly job',
            checkType: 'heartbeat',
            results: pings,
            summary: list(pings, {}).meta.summary,
          },
          {
            checkId: 'api',
            checkName: 'Search API',
            checkType: 'api',
            results: calls,
            summary: list(calls, { averageResponseTime: 150 }).meta.summary,
          },
        ],
      },
    });
    const view = render(
      <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
    );
    unmount = view.unmount;
    const frame = () => plain(view.lastFrame());
    await expect.poll(frame).toContain('Average response time over 1h: 150 ms');
    expect(frame()).not.toContain('averageResponseTime');
    expect(frame()).toMatch(/Nightly job\s+—/);
    expect(frame()).not.toMatch(/Nightly job\s+0 ms/);
  });
});

describe('the metric catalogue', () => {
  it('says a category has no metrics for the type instead of drawing nothing (100x30)', async () => {
    const store = createConsoleStore({ label: 'prod' });
    store.getState().setSize(100, 30);
    store.getState().pushView({ name: 'metrics', checkId: null, filters: DEFAULT_FILTERS, scroll: 0 });
    store.getState().setMetricsScope('api', 'core_web_vitals');
    const empty = {
      responseTimeMetrics: [],
      successMetrics: [],
      volumeMetrics: [],
      browserSpecificMetrics: [],
      heartbeatSpecificMetrics: [],
      certificateMetrics: [],
    };
    store.getState().setCatalogue({
      state: 'ok',
      at: 1,
      data: { data: empty, meta: { totalMetrics: 0, categories: [], checkTypes: ['api'] } },
    });
    const view = render(
      <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
    );
    unmount = view.unmount;
    await expect
      .poll(() => plain(view.lastFrame()))
      .toContain('no metrics of category core web vitals for api checks');
  });
});

describe('F on a check with no failed run', () => {
  it('says there is none to open instead of silently opening the check (100x34)', async () => {
    const store = createConsoleStore({ label: 'prod' });
    store.getState().setSize(100, 34);
    store.getState().applyStatuses([sampleStatus('c1')], sampleSummary(), Date.now());
    const view = render(
      <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
    );
    unmount = view.unmount;
    await expect.poll(() => plain(view.lastFrame())).toContain('Check c1');
    view.stdin.write('F');
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('check');
    const ok = runs(3);
    store.getState().applyResults('c1', list(ok, { successRate: 100 }), list(ok, {}), null, Date.now());
    await expect.poll(() => plain(view.lastFrame())).toContain('no failed run in the last 30 days');
    expect(store.getState().stack.at(-1)?.name).toBe('check');
  });
});

describe('paused polling', () => {
  it('says PAUSED on every view, not only the board (80x24)', async () => {
    const store = createConsoleStore({ label: 'prod' });
    store.getState().setSize(80, 24);
    store.getState().applyStatuses([sampleStatus('c1')], sampleSummary(), Date.now());
    const view = render(
      <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
    );
    unmount = view.unmount;
    const frame = () => plain(view.lastFrame());
    await expect.poll(frame).toContain('Check c1');
    store.getState().setPaused(true);
    await expect.poll(frame).toContain('PAUSED');
    for (const open of [
      () => store.getState().openCheck('c1', false),
      () => store.getState().pushView({ name: 'channels' }),
      () => store.getState().pushView({ name: 'dashboards' }),
      () => store.getState().openMetrics(null),
    ]) {
      open();
      await expect.poll(() => frame().split('\n')[0]).toContain('PAUSED');
      expect(frame().split('\n').length).toBeLessThanOrEqual(24);
    }
  });
});

// A scrolled text stops at its end: j or space past the last line of a result or
// of the metric catalogue does not count on out of sight, so the first k after
// them moves the text at once; and another catalogue (t, c) opens at its top.
// 80x24, a real store fed sample pages.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { MetricDefinition } from '../../src/api/schemas/index.js';
import { createConsoleStore } from '../../src/store/create-store.js';
import { DEFAULT_FILTERS } from '../../src/store/detail-slice.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { resultList, sampleResult, sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

function mount() {
  const store = createConsoleStore({ label: 'prod' });
  store.getState().setSize(80, 24);
  store
    .getState()
    .applyStatuses([sampleStatus('c1', { checkName: 'Payments' })], sampleSummary(), Date.now());
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
  );
  unmount = view.unmount;
  return { store, view, frame: () => plain(view.lastFrame()) };
}

/** "lines 12-31 of 31": the first line shown and the count. */
const position = (frame: string) => {
  const m = /lines (\d+)-(\d+) of (\d+)/.exec(frame);
  return m ? { first: Number(m[1]), last: Number(m[2]), of: Number(m[3]) } : null;
};

describe('the result view', () => {
  it('stops at its last line, and k right after moves it up one', async () => {
    const { store, view, frame } = mount();
    // A body of 40 lines: a text far taller than the view.
    const body = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the body`).join('\n');
    const r = sampleResult('r1', {
      checkId: 'c1',
      response: { statusCode: 200, statusText: 'OK', headers: {}, body, size: body.length, responseTime: 9 },
    });
    store.getState().openCheck('c1', false);
    store.getState().applyResults('c1', resultList([r]), resultList([r]), null, Date.now());
    await expect.poll(frame).toContain('Payments');
    view.stdin.write('\r');
    await expect.poll(() => position(frame())?.first).toBe(1);
    const of = position(frame())!.of;
    for (let i = 0; i < 6; i++) view.stdin.write(' ');
    await expect.poll(() => position(frame())?.last).toBe(of);
    const end = position(frame())!.first;
    view.stdin.write('k');
    await expect.poll(() => position(frame())?.first).toBe(end - 1);
  });
});

const metric = (name: string): MetricDefinition => ({
  name,
  displayName: `Metric ${name}`,
  description: `what ${name} measures`,
  unit: 'milliseconds',
  dataType: 'number',
  availableFor: ['api'],
  calculationMethod: 'average',
});

describe('the metric catalogue', () => {
  it('stops at its last line, k right after moves it, and t opens the next type at its top', async () => {
    const { store, view, frame } = mount();
    store.getState().pushView({ name: 'metrics', checkId: null, filters: DEFAULT_FILTERS, scroll: 0 });
    const metrics = Array.from({ length: 15 }, (_, i) => metric(`m${String(i).padStart(2, '0')}`));
    store.getState().setCatalogue({
      state: 'ok',
      at: 1,
      data: {
        data: {
          responseTimeMetrics: metrics,
          successMetrics: [],
          volumeMetrics: [],
          browserSpecificMetrics: [],
          heartbeatSpecificMetrics: [],
          certificateMetrics: [],
        },
        meta: { totalMetrics: 15, categories: [], checkTypes: ['api'] },
      },
    });
    await expect.poll(frame).toContain('Response time');
    // 31 lines (a title and two lines a metric) in a view of 23, less its title and position line: 10 to the end.
    for (let i = 0; i < 20; i++) view.stdin.write('j');
    await expect.poll(frame).toContain('what m14 measures');
    await expect.poll(() => store.getState().stack.at(-1)).toMatchObject({ name: 'metrics', scroll: 10 });
    expect(frame()).toContain('lines 11-31 of 31');
    view.stdin.write('k');
    await expect.poll(() => store.getState().stack.at(-1)).toMatchObject({ scroll: 9 });
    await expect.poll(frame).not.toContain('what m14 measures');
    view.stdin.write('t');
    await expect.poll(() => store.getState().stack.at(-1)).toMatchObject({ scroll: 0 });
  });
});

// The board's list when it holds more rows than the terminal (a position line,
// as the other lists have), and `esc` on a filtered board or dashboard: the
// filter goes first, then the dashboard's scope. Frames of a real store.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { scopeOf } from '../../src/store/dashboards-slice.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleDashboard, sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const ESC = '\u001b';

function board(cols: number, rows: number, checks: number): ConsoleStore {
  const store = createConsoleStore({ label: 'prod', refreshMs: 60_000 });
  store.getState().setSize(cols, rows);
  const list = Array.from({ length: checks }, (_, i) =>
    sampleStatus(`c${i}`, { checkName: `Check ${String(i).padStart(2, '0')}`, group: null }),
  );
  store.getState().applyStatuses(list, sampleSummary({ totalChecks: checks, passing: checks }), Date.now());
  return store;
}

function mount(store: ConsoleStore) {
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
  );
  unmount = view.unmount;
  return { view, frame: () => plain(view.lastFrame()) };
}

describe('the board at 80x24 with more checks than rows', () => {
  it('says how many rows are hidden and where the selection is, and follows it', async () => {
    const store = board(80, 24, 21);
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('Check 00');
    expect(frame()).toMatch(/… 2 more\s+1\/21/);
    expect(frame().split('\n').length).toBeLessThanOrEqual(24);
    view.stdin.write('G');
    await expect.poll(frame).toMatch(/… 2 more\s+21\/21/);
    expect(frame()).toContain('Check 20');
  });

  it('draws no position line when every row fits (120x40)', async () => {
    const store = board(120, 40, 21);
    const { frame } = mount(store);
    await expect.poll(frame).toContain('Check 20');
    expect(frame()).not.toMatch(/… \d+ more/);
  });
});

describe('esc on a filtered list of checks', () => {
  it('on the board clears an applied filter (80x24)', async () => {
    const store = board(80, 24, 5);
    store.getState().setFilter('Check 03');
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('/Check 03');
    expect(frame()).not.toContain('Check 04');
    view.stdin.write(ESC);
    await expect.poll(frame).toContain('Check 04');
    expect(store.getState().filterText).toBe('');
  });

  it('on a dashboard clears the filter first, then ends the scope (120x40)', async () => {
    const store = board(120, 40, 5);
    const dashboard = sampleDashboard({ checkIds: ['c1', 'c2', 'c3'], checkGroupIds: [] });
    store.getState().pushView({ name: 'dashboards' });
    store.getState().pushView({ name: 'dashboard', dashboard, scope: scopeOf(dashboard) });
    store.getState().setFilter('Check 02');
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('/Check 02');
    view.stdin.write(ESC);
    await expect.poll(frame).toContain('Check 03');
    expect(store.getState().stack.at(-1)?.name).toBe('dashboard');
    expect(frame()).not.toContain('Check 04');
    view.stdin.write(ESC);
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('dashboards');
  });
});

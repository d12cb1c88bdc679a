/* eslint-disable no-control-regex -- reading frames with and without their colour codes */
// A wall whose service stopped answering: its counts and rows turn grey (with
// no colour, or in --ascii, its digits are bracketed), and the header says
// STALE with the age once. Also the wall's use of a big screen's width for
// names. Frames of a real store, at the sizes a wall has.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleStatus } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
const plain = (f: string | undefined) => (f ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const RED = '\u001b[31m';
const GREEN = '\u001b[32m';
const GREY = '\u001b[90m';

function wall(cols: number, rows: number, names: string[] = []): ConsoleStore {
  const store = createConsoleStore(
    { label: 'prod', host: 'mon:443', wallCycleMs: 8_000 },
    { name: 'wall', scope: null },
  );
  store.getState().setSize(cols, rows);
  const failing = sampleStatus('f', {
    checkName: 'Payments',
    status: 'failing',
    locations: [{ id: 'eu-west', name: 'Frankfurt', status: 'failing', lastSuccess: null }],
  });
  const fine = names.map((n, i) => sampleStatus(`p${i}`, { checkName: n }));
  store.getState().applyStatuses([failing, ...fine], null, Date.now());
  return store;
}

function draw(store: ConsoleStore, theme = { color: true, ascii: false }) {
  const view = render(<App store={store} actions={noop} theme={createTheme(theme)} />);
  unmount = view.unmount;
  return { raw: () => view.lastFrame() ?? '', frame: () => plain(view.lastFrame()) };
}

/** The service answered at t0 and has failed since; the clock reads t0 + 34 s. */
function goStale(store: ConsoleStore): void {
  const t0 = Date.now() - 60_000;
  store.getState().connected(t0);
  store.getState().failed({ kind: 'network', message: 'connection refused' }, t0 + 40_000);
  store.getState().tick(t0 + 34_000);
}

describe('a stale wall', () => {
  it('at 200x55 turns its digits and rows grey and says STALE 34s once, with no "updated … ago"', async () => {
    const store = wall(200, 55, ['Auth']);
    store.getState().connected(Date.now());
    const { raw, frame } = draw(store);
    await expect.poll(frame).toContain('Needs attention (1)');
    const digitLine = () =>
      raw()
        .split('\n')
        .find((l) => l.includes('█'))!;
    expect(digitLine()).toContain(RED);
    expect(
      raw()
        .split('\n')
        .find((l) => l.includes('Payments')),
    ).toContain(RED);
    goStale(store);
    await expect.poll(frame).toContain('STALE 34s');
    const top = frame().split('\n')[0]!;
    expect(top.match(/STALE/g)).toHaveLength(1);
    expect(top).not.toContain('updated');
    expect(digitLine()).toContain(GREY);
    expect(digitLine()).not.toContain(RED);
    expect(digitLine()).not.toContain(GREEN);
    const row = raw()
      .split('\n')
      .find((l) => l.includes('Payments'))!;
    expect(row).toContain(GREY);
    expect(row).not.toContain(RED);
    // Live again: colours back, the age where it was.
    store.getState().connected(Date.now());
    await expect.poll(() => frame().split('\n')[0]).toMatch(/updated <10s ago$/);
    expect(digitLine()).toContain(RED);
  });

  it.each([
    ['NO_COLOR', { color: false, ascii: false }],
    ['--ascii', { color: true, ascii: true }],
  ])('at 80x24 with %s brackets its digits and their labels', async (_, theme) => {
    const store = wall(80, 24);
    store.getState().connected(Date.now());
    const { frame } = draw(store, theme);
    await expect.poll(frame).toContain('Needs attention (1)');
    expect(frame()).not.toContain('[FAILING]');
    goStale(store);
    await expect.poll(frame).toContain('[FAILING]');
    expect(frame()).toMatch(/\[(█|#)(█|#)(█|#)\]/);
    expect(frame()).toContain('[PASSING]');
    expect(frame().split('\n').length).toBeLessThanOrEqual(24);
    for (const l of frame().split('\n')) expect(l.length).toBeLessThanOrEqual(80);
  });
});

describe('the wall at 200x55', () => {
  it('gives names the free width instead of cutting them at 22 cells', async () => {
    const long = 'Customer account export (nightly CSV)';
    const store = wall(200, 55, [long, 'Auth', 'Docs', 'Search']);
    const { frame } = draw(store);
    await expect.poll(frame).toContain('4 other checks');
    expect(frame()).toContain(`● ${long}`);
  });
});

// Never a frame taller or wider than the terminal: every view at the smallest size the
// console draws (60x12) and at 80x24, filled with names, reasons and targets longer
// than any line, and with more rows than fit; the footer stays on the last line, and a
// list's last row, selected, stays on screen.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertChannel } from '../../src/api/schemas/index.js';
import { displayWidth } from '../../src/domain/sanitize.js';
import { fieldPaths, SUBS_PATHS } from '../../src/store/channel-form.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { DEFAULT_FILTERS } from '../../src/store/detail-slice.js';
import type { View } from '../../src/store/types.js';
import { App, selectFooterHints } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleDashboard, sampleStatus, sampleSummary, sampleWindow } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

const LONG = 'a name far longer than any line of a small terminal could hold, '.repeat(2).trim();
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const page = (n: number) => ({ currentPage: 1, totalPages: 1, totalItems: n, limit: 50 });

function channel(id: number): AlertChannel {
  return {
    id,
    type: 'WEBHOOK',
    name: `${LONG} ${id}`,
    createdAt: at(-60_000),
    updatedAt: at(-60_000),
    config: { url: `https://hooks.example.com/${'x'.repeat(120)}`, method: 'POST', format: 'pagerduty' },
    subscriptions: { checks: ['c1', 'c2'], groups: ['edge'], locations: ['eu-west'] },
    groupWindowSeconds: 0,
    lastDelivery: { id: `n${id}`, event: 'failure', status: 'failed', at: at(-5_000) },
    failures24h: 3,
  };
}

function filled(cols: number, rows: number): ConsoleStore {
  const store = createConsoleStore({
    label: LONG,
    host: 'monitoring.internal.example.com',
    refreshMs: 60_000,
  });
  store.getState().setSize(cols, rows);
  const checks = Array.from({ length: 30 }, (_, i) =>
    sampleStatus(`c${i}`, {
      checkName: `${LONG} ${i}`,
      status: i % 3 === 0 ? 'failing' : 'passing',
      statusReason: LONG,
      group: { id: 'edge', name: LONG },
    }),
  );
  store
    .getState()
    .applyStatuses(checks, sampleSummary({ totalChecks: 30, failing: 10, passing: 20 }), Date.now());
  store.getState().setList('channels', {
    state: 'ok',
    data: { data: Array.from({ length: 20 }, (_, i) => channel(i + 1)), meta: page(20) },
    at: Date.now(),
  });
  store.getState().setList('dashboards', {
    state: 'ok',
    data: {
      data: Array.from({ length: 20 }, (_, i) =>
        sampleDashboard({ id: `d${i}`, name: `${LONG} ${i}`, description: LONG, tags: ['ops', LONG] }),
      ),
      meta: page(20),
    },
    at: Date.now(),
  });
  store.getState().setWindows({
    state: 'ok',
    data: Array.from({ length: 20 }, (_, i) =>
      sampleWindow(`w${i}`, {
        name: `${LONG} ${i}`,
        reason: LONG,
        scope: { checks: ['c1'], groups: ['edge'], tags: [LONG] },
      }),
    ),
    at: Date.now(),
  });
  return store;
}

const VIEWS: View[] = [
  { name: 'board', scope: null },
  { name: 'check', checkId: 'c0', filters: DEFAULT_FILTERS, selectedResultId: null, openFailed: false },
  { name: 'metrics', checkId: 'c0', filters: DEFAULT_FILTERS, scroll: 0 },
  { name: 'dashboards' },
  { name: 'channels' },
  { name: 'maintenance' },
  { name: 'locations' },
  { name: 'wall', scope: null },
];

/** The views whose rows are selected, the last of them with G. */
const LISTS = new Set(['board', 'dashboards', 'channels', 'maintenance']);

describe('a small terminal', () => {
  it.each([
    [60, 12],
    [80, 24],
  ])('at %ix%i: every view, filled past its edges, stays inside the terminal', async (cols, rows) => {
    for (const view of VIEWS) {
      const store = filled(cols, rows);
      const app = render(
        <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
      );
      unmount = app.unmount;
      if (view.name !== 'board') store.getState().pushView(view);
      await expect.poll(() => store.getState().stack.at(-1)?.name).toBe(view.name);
      await new Promise((r) => setImmediate(r));
      const lines = plain(app.lastFrame()).split('\n');
      const shown = `${view.name}: ${lines.length} lines\n${lines.join('\n')}`;
      expect(lines.length, shown).toBeLessThanOrEqual(rows);
      // The frame is cut at the terminal's last line: what grew past it pushed the footer out.
      expect(lines.at(-1), shown).toContain(selectFooterHints(store.getState()).slice(0, 12));
      const wide = lines.filter((l) => displayWidth(l.trimEnd()) > cols);
      expect(wide, `${view.name} at ${cols} columns`).toEqual([]);
      if (LISTS.has(view.name)) {
        // Its last row selected stays on screen: a line above the table it did not count hides it.
        app.stdin.write('G');
        await expect.poll(() => plain(app.lastFrame())).toMatch(/^› /m);
      }
      app.unmount();
      unmount = undefined;
    }
  });
});

describe('the new channel form on a small terminal', () => {
  it.each([
    [60, 12],
    [60, 16],
    [80, 24],
  ])(
    'at %ix%i: a WEBHOOK with rows and its list of checks open stays inside, each line whole',
    async (cols, rows) => {
      const store = filled(cols, rows);
      const s = () => store.getState();
      s().pushView({ name: 'channels' });
      s().openForm();
      s().formMoveType(2);
      s().formChooseType();
      expect(s().form.type).toBe('WEBHOOK');
      s().formAddRow('headers');
      s().formAddRow('headers');
      s().formAddRow('queryParameters');
      while (fieldPaths(s().form)[s().form.focus] !== SUBS_PATHS.checks) s().formFocus(1);
      s().formOpenPicker();
      s().pickMove(4);
      const app = render(
        <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
      );
      unmount = app.unmount;
      await expect.poll(() => plain(app.lastFrame())).toContain('Subscribe to checks');
      const lines = plain(app.lastFrame()).split('\n');
      const shown = lines.join('\n');
      expect(lines.length, shown).toBeLessThanOrEqual(rows);
      expect(lines.at(-1), shown).toContain(selectFooterHints(s()).slice(0, 12));
      expect(lines.filter((l) => displayWidth(l.trimEnd()) > cols)).toEqual([]);
      // Each line is one thing: the list's title was drawn over the field above it.
      expect(lines.filter((l) => l.startsWith('Subscribe to checks: space toggles')).length, shown).toBe(1);
      expect(
        lines.some((l) => l.startsWith('› Subscribed checks')),
        shown,
      ).toBe(true);
      expect(
        lines.some((l) => /^› \[ \] a name far longer/.test(l)),
        shown,
      ).toBe(true);
      // 30 checks do not fit: the list says how many it leaves out and where the cursor is.
      expect(shown).toMatch(/… \d+ more {2}5\/30/);
    },
  );
});

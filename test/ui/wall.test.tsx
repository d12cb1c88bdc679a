// The wall's frames, its paging and its bell, with a real store.
import { PassThrough } from 'node:stream';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ringOnFailure } from '../../src/commands/run-console.js';
import { formatClock } from '../../src/domain/format.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import type { CheckStatus } from '../../src/store/types.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { failingSince } from '../../src/ui/views/wall/attention-row.js';
import { markRuns } from '../../src/ui/views/wall/mark-grid.js';
import { drawInProcess } from '../helpers/ink-screen.js';
import { sampleStatus } from '../helpers/samples.js';

const ESC = '\u001b';
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (f: string | undefined) => (f ?? '').replace(/\u001b\[[0-9;]*m/g, '');

function wall(cols: number, rows: number, failing: number, passing = 30): ConsoleStore {
  const store = createConsoleStore(
    { label: 'prod', host: 'mon:443', wallCycleMs: 8_000 },
    { name: 'wall', scope: null },
  );
  store.getState().setSize(cols, rows);
  const list = [
    ...Array.from({ length: failing }, (_, i) =>
      sampleStatus(`f${i}`, {
        checkName: `Broken ${String(i).padStart(2, '0')}`,
        status: 'failing',
        locations: [{ id: 'eu-west', name: 'Frankfurt', status: 'failing', lastSuccess: null }],
      }),
    ),
    ...Array.from({ length: passing }, (_, i) => sampleStatus(`p${i}`, { checkName: `Fine ${i}` })),
  ];
  store.getState().applyStatuses(list, null, Date.now());
  return store;
}

function draw(store: ConsoleStore) {
  const view = render(
    <App
      store={store}
      actions={{ quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined }}
      theme={createTheme({ color: true, ascii: false })}
    />,
  );
  unmount = view.unmount;
  return view;
}

describe('wall', () => {
  it('draws big counts, the failing checks with their locations, a clock, and the rest by name at 200x60', async () => {
    const store = wall(200, 60, 3);
    const { lastFrame } = draw(store);
    await expect.poll(() => plain(lastFrame())).toContain('Needs attention (3)');
    const frame = plain(lastFrame());
    expect(frame).toContain('FAILING');
    expect(frame).toMatch(/\d\d:\d\d:\d\d UTC/);
    expect(frame).toMatch(/Broken 00\s+for .* at Frankfurt/);
    // Room for every other check by name: each as its mark and name.
    expect(frame).toMatch(/● Fine 0\s+● Fine 1\s/);
    expect(frame).toContain('30 other checks');
    expect(frame.split('\n').length).toBeLessThanOrEqual(60);
  });

  it('pages through more failures than fit at 80x24, by the clock', async () => {
    const store = wall(80, 24, 25);
    const { lastFrame } = draw(store);
    await expect.poll(() => plain(lastFrame())).toMatch(/page \d\/\d/);
    const pages = Number(/page \d\/(\d)/.exec(plain(lastFrame()))![1]);
    expect(pages).toBeGreaterThan(1);
    expect(plain(lastFrame()).split('\n').length).toBeLessThanOrEqual(24);
    const base = Math.floor(Date.now() / 8_000) * 8_000;
    store.getState().tick(base);
    await expect.poll(() => plain(lastFrame())).toMatch(new RegExp(`page ${((base / 8_000) % pages) + 1}/`));
    store.getState().tick(base + 8_000);
    await expect
      .poll(() => plain(lastFrame()))
      .toMatch(new RegExp(`page ${((base / 8_000 + 1) % pages) + 1}/`));
  });

  it('says so plainly when everything passes', async () => {
    const { lastFrame } = draw(wall(100, 30, 0, 5));
    await expect.poll(() => plain(lastFrame())).toContain('All 5 checks with data are passing.');
  });

  it('highlights a check that turns failing and rings the bell once per poll', async () => {
    const store = wall(120, 40, 0, 3);
    const out = new PassThrough();
    let bells = 0;
    out.on('data', (d: Buffer) => (bells += [...d.toString()].filter((c) => c === '\u0007').length));
    const stop = ringOnFailure(store, out);
    const { lastFrame } = draw(store);
    const turn = (ids: string[]) =>
      store.getState().applyStatuses(
        ['p0', 'p1', 'p2'].map((id) =>
          sampleStatus(id, { checkName: `Fine ${id}`, status: ids.includes(id) ? 'failing' : 'passing' }),
        ),
        null,
        Date.now(),
      );
    turn(['p1']);
    await expect.poll(() => plain(lastFrame())).toMatch(/NEW Fine p1/);
    turn(['p1']); // still failing: no new bell
    turn(['p1', 'p2']); // one more: one more bell
    turn([]);
    turn(['p0', 'p2']); // two turn failing in one poll: one bell each
    stop();
    expect(bells).toBe(4);
  });

  it("opens its help with the wall's own keys first, even at 80x24", async () => {
    const store = wall(80, 24, 2);
    const { lastFrame, stdin } = draw(store);
    await expect.poll(() => plain(lastFrame())).toContain('Needs attention');
    stdin.write('?');
    await expect
      .poll(() => plain(lastFrame()))
      .toContain('enter              switch to the interactive board');
    expect(plain(lastFrame()).split('\n').length).toBeLessThanOrEqual(24);
  });

  it('between polls, a clock tick rewrites the clock line and nothing else', async () => {
    const store = wall(120, 40, 3);
    const screen = drawInProcess(store, 120, 40, true);
    unmount = () => screen.unmount();
    const t0 = Math.floor(Date.now() / 60_000) * 60_000 + 1_000; // one page, one age step
    await screen.frame(() => store.getState().tick(t0));
    const before = screen.writes.length;
    await screen.frame(() => store.getState().tick(t0 + 1_000));
    const writes = screen.writes.slice(before);
    expect(writes).toHaveLength(1);
    // One row addressed (the first), the seconds moved on.
    expect(writes[0]!.match(new RegExp(`${ESC}\\[\\d+;1H`, 'g'))).toEqual([`${ESC}[1;1H`]);
    expect(plain(writes[0])).toContain(formatClock(t0 + 1_000));
  });
});

describe('wall pieces', () => {
  it.each<[string, Array<CheckStatus['status']>, Array<[string, number]>]>([
    ['nothing', [], []],
    ['one run', ['passing', 'passing'], [['passing', 2]]],
    [
      'runs in order',
      ['passing', 'unknown', 'unknown', 'passing'],
      [
        ['passing', 1],
        ['unknown', 2],
        ['passing', 1],
      ],
    ],
  ])('marks in runs: %s', (_name, statuses, runs) => {
    expect(markRuns(statuses)).toEqual(runs);
  });

  const at = (iso: string) => Date.parse(iso);
  const loc = (status: CheckStatus['status'], lastSuccess: string | null) => ({
    id: `l-${status}-${lastSuccess}`,
    name: 'x',
    status,
    lastSuccess,
  });
  it.each<[string, Partial<CheckStatus>, number | null]>([
    [
      'since its incident began',
      {
        currentIncident: { id: 'i', severity: 'critical', startedAt: '2026-11-22T09:00:00.000Z', title: 't' },
      },
      at('2026-11-22T09:00:00.000Z'),
    ],
    [
      'since the earliest last success of its bad locations',
      {
        locations: [
          loc('failing', '2026-11-22T09:30:00.000Z'),
          loc('degraded', '2026-11-22T09:10:00.000Z'),
          loc('passing', '2026-11-22T08:00:00.000Z'),
        ],
      },
      at('2026-11-22T09:10:00.000Z'),
    ],
    ['unknown when no bad location ever succeeded', { locations: [loc('failing', null)] }, null],
  ])('failing %s', (_name, overrides, since) => {
    expect(failingSince(sampleStatus('x', { status: 'failing', ...overrides }))).toBe(since);
  });

  it('does not date a degraded check by its last success (its runs succeed, slowly): unknown without an incident', () => {
    const slow = { locations: [loc('degraded', '2026-11-22T09:59:00.000Z')] };
    expect(failingSince(sampleStatus('x', { status: 'degraded', ...slow }))).toBeNull();
    const startedAt = '2026-11-22T09:00:00.000Z';
    const withIncident = { ...slow, currentIncident: { id: 'i', severity: 'minor', startedAt, title: 't' } };
    expect(failingSince(sampleStatus('x', { status: 'degraded', ...withIncident }))).toBe(at(startedAt));
  });
});

describe('the wall tells its state and scope (issue 36)', () => {
  it('says STALE with the age when polling fails, and names the dashboard and filter it shows (120x40)', async () => {
    const store = wall(120, 40, 2);
    const t0 = Date.now();
    store.getState().connected(t0);
    store.getState().pushView({
      name: 'dashboard',
      dashboard: null,
      scope: { name: 'Operations', checkIds: new Set(['f0', 'p0']), groupIds: new Set() },
    });
    store.getState().pushView({ name: 'wall', scope: null });
    store.getState().setFilter('status:failing');
    const { lastFrame } = draw(store);
    await expect.poll(() => plain(lastFrame())).toContain('Needs attention');
    const top = () => plain(lastFrame()).split('\n')[0]!;
    expect(top()).toContain('dashboard Operations, filter status:failing');
    expect(top()).not.toContain('STALE');
    store.getState().failed({ kind: 'network', message: 'connection refused' }, t0 + 130_000);
    store.getState().tick(t0 + 125_000);
    await expect.poll(top).toContain('STALE 2m');
  });
});

describe('the wall header on a narrow terminal', () => {
  it.each([
    [80, /^Checkwall ─ mon\.example\.com:443 ─ dashboard Ops +\d\d:\d\d:\d\d UTC {2}updated never$/],
    [60, /^Checkwall ─ mon… ─ dashboard Ops \d\d:\d\d:\d\d UTC {2}updated never$/],
  ])(
    'at %i columns keeps the dashboard it shows whole, then the host, one column apart from the clock',
    async (cols, line) => {
      const store = createConsoleStore(
        { label: 'production, eu-central', host: 'mon.example.com:443' },
        { name: 'wall', scope: null },
      );
      store.getState().setSize(cols, 24);
      store.getState().applyStatuses([sampleStatus('a')], null, Date.now());
      store.getState().pushView({
        name: 'dashboard',
        dashboard: null,
        scope: { name: 'Ops', checkIds: new Set(['a']), groupIds: new Set() },
      });
      store.getState().pushView({ name: 'wall', scope: null });
      const { lastFrame } = draw(store);
      const top = () => plain(lastFrame()).split('\n')[0]!;
      await expect.poll(top).toContain('UTC');
      // Before: "Checkwall ─ production, eu-central ─ mon.exa…16:33:58 UTC", the dashboard cut off.
      expect(top()).toMatch(line);
    },
  );
});

describe('attention rows at 80 columns (issue 36)', () => {
  it('keep the status word whole and cut the locations, never the status', async () => {
    const store = createConsoleStore({ label: 'prod', host: 'mon:443' }, { name: 'wall', scope: null });
    store.getState().setSize(80, 24);
    const places = ['Frankfurt', 'Virginia', 'Singapore', 'Sao Paulo', 'Sydney'].map((name) => ({
      id: name.toLowerCase(),
      name,
      status: 'failing' as const,
      lastSuccess: null,
    }));
    const failing = sampleStatus('f', {
      checkName: 'Checkout through the regional payment gateway',
      status: 'failing',
      locations: places,
      currentAlert: { id: 'a', openedAt: new Date().toISOString(), acknowledgedAt: null, undelivered: 1 },
    });
    const degraded = sampleStatus('d', {
      checkName: 'Search suggestions for the storefront',
      status: 'degraded',
      locations: places.map((l) => ({
        ...l,
        status: 'degraded' as const,
        lastSuccess: new Date().toISOString(),
      })),
    });
    store.getState().applyStatuses([failing, degraded], null, Date.now());
    store.getState().applyStatuses([{ ...failing }, degraded], null, Date.now() + 1);
    const { lastFrame } = draw(store);
    await expect.poll(() => plain(lastFrame())).toContain('Needs attention');
    const row = (name: string) =>
      plain(lastFrame())
        .split('\n')
        .find((l) => l.includes(name))!;
    expect(row('Checkout')).toMatch(/^✖ FAILING +(NEW +)?Checkout/);
    expect(row('Search')).toMatch(/^▲ DEGRADED +Search/);
    // A degraded check's last success is not when it became degraded: unknown, not "<10s".
    expect(row('Search')).toMatch(/for — /);
    for (const l of plain(lastFrame()).split('\n')) expect(l.length).toBeLessThanOrEqual(80);
  });
});

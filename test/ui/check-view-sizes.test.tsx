/* eslint-disable no-control-regex -- reading frames without colour codes */
// The check view from the smallest terminal the console takes (60x12) up: the
// check's name, every location (or the worst ones and a line for the rest), the
// call-out of a location failing alone, and a result row to open are always
// there; the alert panel, the strip, the sparkline and the actions give way.
// Drawn whole at 60x16, Ink squeezed the boxes and drew lines over one another:
// the check's name was gone and "no summary yet" was written over the filters.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/domain/sanitize.js';
import { createConsoleStore } from '../../src/store/create-store.js';
import type { CheckStatus } from '../../src/store/types.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { budget } from '../../src/ui/views/check-detail/budget.js';
import { sampleResult, sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

const THREE: CheckStatus['locations'] = [
  { id: 'eu-west', name: 'Frankfurt', status: 'passing', lastSuccess: null },
  { id: 'us-east', name: 'Virginia', status: 'passing', lastSuccess: null },
  { id: 'ap-south', name: 'Singapore', status: 'failing', lastSuccess: null },
];

function checkView(
  cols: number,
  rows: number,
  locations = THREE,
  results = Array.from({ length: 10 }, (_, i) => sampleResult(`r${i}`)),
  over: Partial<CheckStatus> = {},
) {
  const store = createConsoleStore({ label: 'demo', host: 'h' });
  store.getState().setSize(cols, rows);
  const check = sampleStatus('c1', {
    checkName: 'Checkout (regional outage)',
    status: 'failing',
    locations,
    ...over,
  });
  store.getState().applyStatuses([check], sampleSummary(), Date.now());
  store.getState().openCheck('c1', false);
  const meta = { currentPage: 1, totalPages: 1, totalItems: 10, limit: 50, hasMore: false };
  const page = {
    data: results,
    meta: {
      ...meta,
      timeframe: { from: '', to: '' },
      checkId: 'c1',
      checkName: 'Checkout (regional outage)',
    },
  };
  store.getState().applyResults('c1', page, page, null, Date.now());
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: true, ascii: false })} />,
  );
  unmount = view.unmount;
  return () => plain(view.lastFrame()).split('\n');
}

describe('the check view at every size', () => {
  it.each([
    [60, 12],
    [60, 16],
    [80, 24],
    [120, 40],
  ])(
    'at %ix%i keeps the name, every location, the call-out and a result row, each line whole',
    async (cols, rows) => {
      const lines = checkView(cols, rows);
      await expect.poll(() => lines().join('\n')).toContain('STARTED');
      const frame = lines();
      expect(frame[0]).toMatch(/^✖ FAILING\s+Checkout \(regional outage\)\s+api$/);
      for (const name of ['Frankfurt (eu-west)', 'Virginia (us-east)', 'Singapore (ap-south)'])
        expect(frame.some((l) => l.startsWith(`  ${name}`))).toBe(true);
      expect(frame.find((l) => l.includes('Singapore'))).toMatch(/✖ FAILING .*◀ only this location fails$/);
      expect(frame).toContain('no summary yet');
      expect(frame.some((l) => l.startsWith('› '))).toBe(true);
      expect(frame.length).toBeLessThanOrEqual(rows);
      for (const line of frame) expect(displayWidth(line)).toBeLessThanOrEqual(cols);
      // The parts that give way, and where they are back.
      expect(frame.some((l) => l.startsWith('Alert '))).toBe(rows >= 14);
      expect(frame.some((l) => l.startsWith('response '))).toBe(rows >= 16);
    },
  );

  it('at 80x24 a heartbeat says when its next ping is due, or since when its job runs', async () => {
    const heartbeat = { checkType: 'heartbeat', status: 'passing' as const };
    const due = checkView(80, 24, THREE, undefined, {
      ...heartbeat,
      nextPingDue: '2026-11-29T03:10:00.000Z',
    });
    await expect.poll(() => due().join('\n')).toContain('next ping due 03:10:00');
    unmount?.();
    const running = checkView(80, 24, THREE, undefined, {
      ...heartbeat,
      nextPingDue: '2026-11-29T03:10:00.000Z',
      runningSince: '2026-11-29T03:00:02.000Z',
    });
    await expect.poll(() => running().join('\n')).toContain('running since 03:00:02');
  });

  it("at 80x24 a heartbeat's runs list the job's exit code, and none for a plain ping", async () => {
    const run = (id: string, end: 'exit' | 'success', exitCode: number | null) =>
      sampleResult(id, {
        checkType: 'heartbeat',
        status: exitCode ? 'failed' : 'success',
        // What the service stores (heartbeats/results.ts): a plain ping's statusCode is 0.
        response: {
          statusCode: exitCode ?? 0,
          statusText: end,
          headers: {},
          body: '',
          responseTime: 0,
          size: 0,
        },
        heartbeat: { end, exitCode, startedAt: null, rid: null },
      });
    const lines = checkView(80, 24, THREE, [run('r0', 'exit', 3), run('r1', 'success', null)], {
      checkType: 'heartbeat',
    });
    await expect.poll(() => lines().join('\n')).toContain('STARTED');
    const frame = lines();
    const header = frame.find((l) => l.includes('STARTED'))!;
    expect(header).toMatch(/\bEXIT\b/);
    expect(header).not.toMatch(/\bCODE\b/);
    const at = header.indexOf('EXIT') + 'EXIT'.length;
    const rows = frame.slice(frame.indexOf(header) + 1, frame.indexOf(header) + 3);
    expect(rows.map((l) => l.slice(at - 4, at).trim())).toEqual(['3', '—']);
  });

  it('at 60x12 with eight locations lists the worst first and says what else there is', async () => {
    const eight = Array.from({ length: 8 }, (_, i) => ({
      id: `loc-${i}`,
      name: `Place ${i}`,
      status: (i === 5 ? 'failing' : i === 6 ? 'degraded' : 'passing') as CheckStatus['status'],
      lastSuccess: null,
    }));
    const lines = checkView(60, 12, eight);
    await expect.poll(() => lines().join('\n')).toContain('STARTED');
    const frame = lines();
    expect(frame[0]).toMatch(/^✖ FAILING/);
    const at = frame.findIndex((l) => l.startsWith('  LOCATION'));
    expect(frame[at + 1]).toMatch(/^ {2}Place 5 \(loc-5\)\s+✖ FAILING/);
    expect(frame[at + 2]).toMatch(/^ {2}Place 6 \(loc-6\)\s+▲ DEGRADED/);
    expect(frame[at + 3]).toBe('  … 6 more locations: 6 passing');
    expect(frame.some((l) => l.startsWith('› '))).toBe(true);
    expect(frame.length).toBeLessThanOrEqual(12);
  });
});

describe('a FAILING check whose every location reads degraded', () => {
  const degraded = THREE.map((l) => ({ ...l, status: 'degraded' as const }));

  it.each([
    [80, 24],
    [120, 40],
  ])('at %ix%i says why under its locations: availability below the failing line', async (cols, rows) => {
    const lines = checkView(cols, rows, degraded, undefined, {
      availability: { percentage: 75, period: '24h' },
    });
    await expect.poll(() => lines().join('\n')).toContain('STARTED');
    const frame = lines();
    const at = frame.findIndex((l) => l.startsWith('  LOCATION'));
    expect(frame[at + 4]).toMatch(/^ {2}✖ FAILING as a whole: availability 75\.00% below 85%/);
    expect(frame.length).toBeLessThanOrEqual(rows);
  });

  it('at 60x12, cut to its worst locations, still says why', async () => {
    const six = Array.from({ length: 6 }, (_, i) => ({
      id: `loc-${i}`,
      name: `Place ${i}`,
      status: 'degraded' as const,
      lastSuccess: null,
    }));
    const lines = checkView(60, 12, six, undefined, { availability: { percentage: 75, period: '24h' } });
    await expect.poll(() => lines().join('\n')).toContain('STARTED');
    expect(lines().join('\n')).toContain('FAILING as a whole: availability 75.00% below 85%');
    expect(lines().join('\n')).toMatch(/… \d more locations/);
    expect(lines().length).toBeLessThanOrEqual(12);
  });
});

describe('the results at 80x24', () => {
  it('keep LOCATION beside a long first failed assertion, whose end is cut instead', async () => {
    const failed = Array.from({ length: 4 }, (_, i) =>
      sampleResult(`f${i}`, {
        status: 'failed',
        location: { id: 'ap-south', name: 'Singapore', region: 'ap-southeast-1' },
        assertions: [
          {
            source: 'JSON_BODY',
            property: '$.data.items[0].inventory.warehouse.status',
            comparison: 'EQUALS',
            target: 'in-stock-and-ready-to-ship',
            passed: false,
            actual: 'backordered',
          },
        ],
      }),
    );
    const lines = checkView(80, 24, THREE, failed);
    await expect.poll(() => lines().join('\n')).toContain('STARTED');
    const frame = lines();
    const head = frame.find((l) => l.includes('STARTED'))!;
    expect(head).toMatch(/LOCATION/);
    expect(head).toMatch(/FIRST FAILED/);
    expect(frame.find((l) => l.startsWith('› '))).toMatch(/ap-south .*JSON_BODY/);
    for (const line of frame) expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });
});

describe('budget', () => {
  const needs = {
    header: 3,
    banner: 0,
    locations: 4,
    maintenance: 2,
    alerts: 2,
    audit: 1,
    notice: 0,
    error: 0,
  };

  it('draws everything where it fits, and gives the rest to result rows', () => {
    expect(budget(40, needs)).toEqual({
      maintenance: true,
      alerts: true,
      audit: true,
      strip: true,
      sparkline: true,
      locations: 4,
      results: 40 - (3 + 4 + 2 + 2 + 1 + 1 + 1 + 2 + 1),
    });
  });

  it('lets the actions, the strip, the sparkline, the alerts and maintenance go, in that order', () => {
    const drawn = (h: number) =>
      Object.entries(budget(h, needs))
        .filter(([, v]) => v === true)
        .map(([k]) => k);
    // Header 3, locations 4, summary 2, a result 2: 11 lines; then maintenance 2, alerts 2, sparkline, strip, actions.
    expect(drawn(18)).toEqual(['maintenance', 'alerts', 'audit', 'strip', 'sparkline']);
    expect(drawn(17)).toEqual(['maintenance', 'alerts', 'strip', 'sparkline']);
    expect(drawn(16)).toEqual(['maintenance', 'alerts', 'sparkline']);
    expect(drawn(15)).toEqual(['maintenance', 'alerts']);
    expect(drawn(13)).toEqual(['maintenance']);
    expect(drawn(11)).toEqual([]);
    expect(budget(12, needs).results).toBe(2);
    expect(budget(11, needs)).toMatchObject({ locations: 4, results: 1 });
  });

  it('cuts the locations only when nothing else is left to give, and keeps the worst one', () => {
    expect(budget(11, { ...needs, locations: 9 })).toMatchObject({ locations: 4, results: 1 });
    expect(budget(8, { ...needs, locations: 9 })).toMatchObject({ locations: 3, results: 1 });
  });
});

describe('a check with more results than fit', () => {
  it('says how many results are not shown and which one is selected, as the board does (80x24)', async () => {
    const store = createConsoleStore({ label: 'demo', host: 'h' });
    store.getState().setSize(80, 24);
    store.getState().applyStatuses([sampleStatus('c1', { locations: THREE })], sampleSummary(), Date.now());
    store.getState().openCheck('c1', false);
    const results = Array.from({ length: 20 }, (_, i) => sampleResult(`r${i}`));
    const meta = { currentPage: 1, totalPages: 1, totalItems: 20, limit: 20, hasMore: false };
    const page = {
      data: results,
      meta: { ...meta, timeframe: { from: '', to: '' }, checkId: 'c1', checkName: 'c1' },
    };
    store.getState().applyResults('c1', page, page, null, Date.now());
    const view = render(
      <App store={store} actions={noop} theme={createTheme({ color: true, ascii: false })} />,
    );
    unmount = view.unmount;
    const frame = () => plain(view.lastFrame());
    await expect.poll(frame).toContain('STARTED');
    expect(frame()).toMatch(/… \d+ more {2}1\/20/);
    // The last row selected: the rows above it are the ones said, not lost from sight.
    view.stdin.write('G');
    await expect.poll(frame).toMatch(/… \d+ more {2}20\/20/);
    expect(frame().split('\n').length).toBeLessThanOrEqual(24);
  });
});

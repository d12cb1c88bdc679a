/* eslint-disable no-control-regex -- reading frames without colour codes */
// Issue 36: the wall from across the room at 200x55 and on a laptop at 80x24,
// degraded "for how long", the HOLD marks, and why an incident paged no one.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/domain/sanitize.js';
import { createConsoleStore } from '../../src/store/create-store.js';
import type { CheckStatus, View } from '../../src/store/types.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { planWall } from '../../src/ui/views/wall/wall-view.js';
import { sampleStatus } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
const plain = (f: string | undefined) => (f ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const lines = (f: string | undefined) => plain(f).split('\n');
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function console_(
  cols: number,
  rows: number,
  list: CheckStatus[],
  view: View = { name: 'wall', scope: null },
) {
  const store = createConsoleStore({ label: 'prod', host: 'mon:443', wallCycleMs: 8_000 }, view);
  store.getState().setSize(cols, rows);
  store.getState().applyStatuses(list, null, Date.now());
  const r = render(<App store={store} actions={noop} theme={createTheme({ color: true, ascii: false })} />);
  unmount = r.unmount;
  return { ...r, store };
}

const LOCATIONS = ['Frankfurt', 'Virginia', 'Singapore', 'Sydney', 'São Paulo', 'Mumbai', 'Tokyo'];
const slow = sampleStatus('slow', {
  checkName: 'Search',
  status: 'degraded',
  degradedSince: ago(12 * 60_000 + 30_000),
  statusReason: 'eu-west responds in 3000 ms, above 1000 ms',
  locations: [{ id: 'eu-west', name: 'Frankfurt', status: 'degraded', lastSuccess: ago(20_000) }],
});
const silenced = sampleStatus('silenced', {
  checkName: 'Checkout with a very long name for the wall to cut',
  status: 'failing',
  maintenance: {
    id: 'mw',
    name: 'DB upgrade',
    endsAt: new Date(Date.now() + 42 * 60_000 + 30_000).toISOString(),
    mode: 'silence',
  },
  locations: LOCATIONS.map((name, i) => ({
    id: `l${i}`,
    name,
    status: 'failing' as const,
    lastSuccess: null,
  })),
});
const alternating = sampleStatus('alt', {
  checkName: 'Payments',
  status: 'failing',
  currentIncident: {
    id: 'i1',
    severity: 'critical',
    startedAt: ago(5 * 60_000),
    title: 'Payments is failing',
  },
  currentAlert: null,
  alertAfterFailures: 2,
  statusReason: 'failing at 2 locations',
});
const fine = Array.from({ length: 18 }, (_, i) =>
  sampleStatus(`ok${i}`, {
    checkName: `Fine ${i}`,
    ...(i === 0 ? { paused: { by: 'alice', since: ago(3_600_000) } } : {}),
  }),
);

describe('the wall at 200x55', () => {
  it('draws its digits twice as large and spends the height on the list: a line of why each, the rest by name', async () => {
    const { lastFrame } = console_(200, 55, [slow, silenced, alternating, ...fine]);
    await expect.poll(() => plain(lastFrame())).toContain('Needs attention (3)');
    const frame = lines(lastFrame());
    expect(frame.length).toBeLessThanOrEqual(55);
    // Ten rows of digits above their labels (five at 80x24).
    const first = frame.findIndex((l) => l.includes('█'));
    const labels = frame.findIndex((l) => /FAILING\s+DEGRADED\s+UNKNOWN\s+PASSING/.test(l));
    expect(labels - first).toBe(10);
    expect(plain(lastFrame())).toMatch(/DEGRADED\s+Search\s+for 12m/);
    expect(plain(lastFrame())).toContain('eu-west responds in 3000 ms, above 1000 ms');
    expect(plain(lastFrame())).toContain('incident open; no alert: fewer than 2 failures in a row');
    expect(plain(lastFrame())).toMatch(/FAILING\s+Checkout with a very long.*for .*∅ 42m/);
    // The others by name, a paused one with its mark.
    expect(plain(lastFrame())).toMatch(/‖ Fine 0\s+● Fine 1\s/);
    const empty = frame.filter((l) => l.trim() === '').length;
    expect(plain(lastFrame())).toContain('Singapore: failing, last success never');
    expect(empty).toBeLessThan(25);
  });
});

describe('the wall at 80x24', () => {
  it('keeps every attention row in one layout: the locations are cut, never the status', async () => {
    const { lastFrame } = console_(80, 24, [slow, silenced, alternating, ...fine]);
    await expect.poll(() => plain(lastFrame())).toContain('Needs attention (3)');
    const rows = lines(lastFrame()).filter((l) => /^[✖▲] (FAILING|DEGRADED)/.test(l));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatch(/^(✖ FAILING |▲ DEGRADED) {5}\S/);
      expect(displayWidth(row)).toBeLessThanOrEqual(80);
    }
    expect(rows.find((r) => r.includes('Checkout'))).toMatch(/for .*∅ 42m at Frankfurt/);
    expect(rows.find((r) => r.includes('Search'))).toMatch(/for 12m/);
  });

  it('plans one line a check and pages when the list does not fit', () => {
    expect(planWall({ free: 10, details: Array<number>(25).fill(2), rest: 30, cols: 80 })).toMatchObject({
      attentionRows: 9,
      perCheck: 1,
      names: false,
    });
    // Room to spare: each row says why and where, then the others by name.
    expect(planWall({ free: 40, details: [2, 8, 1], rest: 18, cols: 200 })).toMatchObject({
      perCheck: 10,
      names: true,
      gridLines: 3,
    });
  });
});

describe('the wall at 200x55, a check failing as a whole', () => {
  it('says why once: on its row, where no location is in trouble, and not again under it', async () => {
    const whole = sampleStatus('beat', {
      checkName: 'Nightly backup',
      status: 'failing',
      statusReason: 'availability 71.4% is below 85%',
      locations: [{ id: 'eu-west', name: 'Frankfurt', status: 'passing', lastSuccess: ago(60_000) }],
    });
    const { lastFrame } = console_(200, 55, [whole, slow, ...fine]);
    await expect.poll(() => plain(lastFrame())).toContain('Needs attention (2)');
    const frame = plain(lastFrame());
    expect(frame).toMatch(/FAILING\s+Nightly backup\s+for .*availability 71\.4% is below 85%/);
    expect(frame.split('availability 71.4% is below 85%')).toHaveLength(2);
    // A check with a location in trouble still says why under its row, its row saying where.
    expect(frame).toMatch(/DEGRADED\s+Search\s+for 12m\s+at Frankfurt/);
    expect(frame).toContain('eu-west responds in 3000 ms, above 1000 ms');
  });
});

describe('the wall on a big screen with checks of more and less to say', () => {
  it('gives each check the lines its detail needs while they fit, not an even share', () => {
    // The demo's seven at 160x48: 31 free lines, two checks with one or two lines of detail,
    // four with a reason and three locations. An even share (four lines each) left four
    // lines empty and the third location of four checks unnamed.
    const details = [2, 2, 4, 1, 4, 4, 4];
    const plan = planWall({ free: 31, details, rest: 14, cols: 160 });
    expect(plan.perCheck).toBeGreaterThanOrEqual(1 + Math.max(...details));
    expect(plan.names).toBe(true);
    // Where they do not all fit, every check still has a line, and the lines used fit.
    const tight = planWall({ free: 16, details, rest: 14, cols: 160 });
    const used = details.reduce((n, d) => n + 1 + Math.min(tight.perCheck - 1, d), 0);
    expect(tight.perCheck).toBeGreaterThan(1);
    expect(used).toBeLessThanOrEqual(16 - tight.gridLines);
  });
});

describe('the check view', () => {
  it('says since when a check is degraded, and why an open incident paged no one, at 80x24', async () => {
    const view: View = {
      name: 'check',
      checkId: 'slow',
      filters: { period: '24h', sortBy: 'startedAt', sortOrder: 'desc', page: 1 },
      selectedResultId: null,
      openFailed: false,
    };
    const { lastFrame, store } = console_(80, 24, [slow, alternating], view);
    await expect.poll(() => plain(lastFrame())).toMatch(/▲ DEGRADED for 12m\s+Search/);
    store.getState().replaceView({ ...view, checkId: 'alt' });
    await expect
      .poll(() => plain(lastFrame()))
      .toMatch(/^incident open; no alert: fewer than 2 failures in a row/m);
  });
});

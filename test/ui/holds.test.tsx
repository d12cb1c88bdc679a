/* eslint-disable no-control-regex -- reading frames without colour codes */
// One cause shown once (docs/console.md): a check held by a parent or a down
// location says so in the board's HOLD column, on the wall and in the check view;
// a declared location outage is a banner over the board and the wall; `:locations`
// lists each location's checks, runners and outage. At 80x24, 120x40 and 200x55,
// every line within the terminal; names from the network are sanitised.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/domain/sanitize.js';
import { createConsoleStore } from '../../src/store/create-store.js';
import type { CheckStatus, View } from '../../src/store/types.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

const SINCE = '2026-11-28T03:12:00.000Z';
const loc = (id: string, name: string, status: CheckStatus['status'], remote = false) => ({
  id,
  name,
  status,
  lastSuccess: null,
  remote,
  runnerLastSeen: null,
});

const CHECKS: CheckStatus[] = [
  sampleStatus('db-primary', {
    checkName: 'DB primary',
    status: 'failing',
    locations: [loc('fra', 'Frankfurt', 'failing'), loc('sin', 'Singapore', 'failing', true)],
  }),
  sampleStatus('api', {
    checkName: 'API',
    status: 'failing',
    locations: [loc('fra', 'Frankfurt', 'failing'), loc('sin', 'Singapore', 'failing', true)],
    heldBy: { kind: 'dependency', id: 'db-primary', name: 'DB primary', since: SINCE, location: 'Frankfurt' },
  }),
  sampleStatus('shop', {
    checkName: 'Shop',
    status: 'failing',
    locations: [loc('fra', 'Frankfurt', 'passing'), loc('sin', 'Singapore', 'failing', true)],
    heldBy: { kind: 'location', id: 'sin', name: 'Singapore', since: SINCE, location: 'sin' },
  }),
  sampleStatus('odd', {
    checkName: 'Odd',
    status: 'failing',
    locations: [loc('fra', 'Frankfurt', 'failing')],
    heldBy: { kind: 'quarantine', id: 'q1', name: 'Quarantine \u001b[31mred', since: SINCE },
  }),
];
const OUTAGES = [
  { id: 'sin', name: 'Singapore', outageId: 'o1', since: SINCE, failing: 12, total: 14 },
  { id: 'syd', name: 'Sydney', outageId: 'o2', since: SINCE, failing: 5, total: 6 },
];

function mount(cols: number, rows: number, view: View | null, open?: string) {
  const store = createConsoleStore({ label: 'demo', host: 'h' });
  store.getState().setSize(cols, rows);
  store.getState().applyLocationOutages(OUTAGES);
  store.getState().applyStatuses(CHECKS, sampleSummary(), Date.parse('2026-11-28T03:20:00.000Z'));
  if (open) store.getState().openCheck(open, false);
  if (view) store.getState().pushView(view);
  const app = render(<App store={store} actions={noop} theme={createTheme({ color: true, ascii: false })} />);
  unmount = app.unmount;
  return () => plain(app.lastFrame()).split('\n');
}

async function settled(lines: () => string[], text: string, cols: number, rows: number) {
  await expect.poll(() => lines().join('\n')).toContain(text);
  const frame = lines();
  expect(frame.length).toBeLessThanOrEqual(rows);
  for (const line of frame) expect(displayWidth(line)).toBeLessThanOrEqual(cols);
  return frame.join('\n');
}

const BANNER = 'LOCATION DOWN Singapore 12/14 since 03:12 +1 more';

describe.each([
  [80, 24],
  [120, 40],
  [200, 55],
])('holds and outages at %ix%i', (cols, rows) => {
  it('the board: the banner, and HOLD names the parent, the location and an unknown kind', async () => {
    const text = await settled(mount(cols, rows, null), BANNER, cols, rows);
    expect(text).toContain('HOLD');
    expect(text).toMatch(/API.*⤷ db-primary/);
    expect(text).toMatch(/Shop.*⤷ sin/);
    expect(text).toMatch(/Odd.*⤷ quarantine q1/);
  });

  it('the wall: the banner and why each check is held', async () => {
    const text = await settled(mount(cols, rows, { name: 'wall', scope: null }), BANNER, cols, rows);
    expect(text).toMatch(/API.*⤷ db-primary/);
    expect(text).toMatch(/Shop.*⤷ sin/);
  });

  it('the check view says what holds it, in words', async () => {
    await settled(
      mount(cols, rows, null, 'api'),
      'held: depends on DB primary, failing in Frankfurt since 03:12',
      cols,
      rows,
    );
    unmount?.();
    await settled(mount(cols, rows, null, 'shop'), 'held: Singapore is down since 03:12', cols, rows);
    unmount?.();
    // An unknown kind by its raw name; the escape code from the network is gone.
    const odd = await settled(mount(cols, rows, null, 'odd'), 'held: quarantine Quarantine', cols, rows);
    expect(odd).not.toContain('\u001b');
  });

  it(':locations lists each location with passing / failing, runners and the outage', async () => {
    const text = await settled(mount(cols, rows, { name: 'locations' }), 'Locations (3)', cols, rows);
    const lines = text.split('\n');
    const row = (name: string) => lines.find((l) => l.trimStart().startsWith(name)) ?? '';
    expect(row('Singapore')).toMatch(/Singapore\s+0\s+3\b.*DOWN 12\/14 since 03:12/);
    if (cols >= 120) expect(row('Singapore')).toContain('no runner');
    expect(row('Frankfurt')).toMatch(/Frankfurt\s+1\s+3\b/);
    // A declared outage at a location no status names still has its row.
    expect(row('Sydney')).toMatch(/Sydney\s+0\s+0\b.*DOWN 5\/6/);
    // Down first.
    expect(lines.findIndex((l) => l.includes('Frankfurt'))).toBeGreaterThan(
      lines.findIndex((l) => l.trimStart().startsWith('Sydney')),
    );
  });
});

describe('the outage banner', () => {
  it('names one outage without "more", and is gone when the service declares none', async () => {
    const store = createConsoleStore({ label: 'demo', host: 'h' });
    store.getState().setSize(80, 24);
    store.getState().applyLocationOutages([OUTAGES[0]!]);
    store.getState().applyStatuses(CHECKS, sampleSummary(), Date.now());
    const app = render(
      <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
    );
    unmount = app.unmount;
    const text = () => plain(app.lastFrame());
    await expect.poll(text).toContain('LOCATION DOWN Singapore 12/14 since 03:12');
    expect(text()).not.toContain('more');
    store
      .getState()
      .applyStatusChanges(
        { changed: [], removed: [], summary: sampleSummary(), locationOutages: [] },
        Date.now(),
      );
    await expect.poll(text).not.toContain('LOCATION DOWN');
  });
});

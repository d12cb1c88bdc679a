// The check view's record of the check at 80x24: who paused it and for how long,
// the latest actions taken on it, 30 days of availability (one cell a day, with
// its legend; the last N days on a narrower terminal), and `running…` at each
// location while a run asked for is under way.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/api/schemas/actions.js';
import type { CheckHistoryBucket } from '../../src/api/schemas/index.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T10:00:00.000Z');

/** 30 daily buckets, oldest first: no runs on the first, then the availability given, else 100%. */
function days(special: Record<number, number | null>): CheckHistoryBucket[] {
  return Array.from({ length: 30 }, (_, i) => {
    const availability = i in special ? special[i]! : 100;
    return {
      start: new Date(NOW - (29 - i) * DAY).toISOString().slice(0, 10) + 'T00:00:00.000Z',
      locationId: null,
      runs: availability === null ? 0 : 1440,
      failures: 0,
      availability,
      averageResponseTime: 120,
      p95ResponseTime: 200,
    };
  });
}

const events: AuditEvent[] = [
  {
    id: 'e2',
    at: new Date(NOW - 120_000).toISOString(),
    keyName: 'oncall',
    action: 'pause',
    checkId: 'c1',
    details: {},
  },
  {
    id: 'e1',
    at: new Date(NOW - 600_000).toISOString(),
    keyName: 'deploy-bot',
    action: 'run',
    checkId: 'c1',
    details: { triggeredBy: 'api', runs: [{ location: 'eu-west' }, { location: 'us-east' }] },
  },
];

function checkOnScreen(cols: number, rows: number): { store: ConsoleStore; frame: () => string } {
  const store = createConsoleStore({ label: 'prod', refreshMs: 60_000 });
  store.getState().setSize(cols, rows);
  store.getState().tick(NOW);
  const check = sampleStatus('c1', {
    checkName: 'Payments',
    status: 'unknown',
    // As the service words it: the paused line below gives the same time, once.
    statusReason: `paused by oncall since ${new Date(NOW - 2 * 3_600_000).toISOString()}`,
    paused: { by: 'oncall', since: new Date(NOW - 2 * 3_600_000).toISOString() },
    certificate: { daysRemaining: 4, validTo: new Date(NOW + 4 * DAY).toISOString() },
    locations: [
      { id: 'eu-west', name: 'Frankfurt', status: 'passing', lastSuccess: null },
      { id: 'us-east', name: 'Virginia', status: 'passing', lastSuccess: null },
    ],
  });
  store.getState().applyStatuses([check], sampleSummary(), NOW);
  store.getState().openCheck('c1', false);
  store.getState().setAudit('c1', {
    state: 'ok',
    at: NOW,
    data: { data: events, meta: { currentPage: 1, totalPages: 1, totalItems: 2, limit: 5 } },
  });
  store.getState().setDailyHistory('c1', {
    state: 'ok',
    at: NOW,
    data: {
      data: days({ 0: null, 1: null, 27: 99.5, 28: 97, 29: 80 }),
      meta: { checkId: 'c1', period: '30d', granularity: 'day', from: '', to: '' },
    },
  });
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
  );
  unmount = view.unmount;
  return { store, frame: () => plain(view.lastFrame()) };
}

describe('the check view’s record of the check', () => {
  it('fits 80x24 with who paused it, the latest action and 30 days, one cell a day', async () => {
    const { frame } = checkOnScreen(80, 24);
    await expect.poll(frame).toContain('paused by oncall since 2026-11-27 08:00 UTC (for 2h)');
    const strip = frame()
      .split('\n')
      .find((l) => l.startsWith('30 days '))!;
    expect(strip).toBe(`30 days ——${'█'.repeat(25)}▓▒░  █≥99.9 ▓≥99 ▒≥95 ░<95 —none`);
    expect(frame()).toMatch(/Actions 2m ago\s+oncall\s+paused it/);
    // The pause's time once, in one format; the certificate the board marks ◔ 4d, in words.
    expect(frame().match(/since/g)).toHaveLength(1);
    expect(frame()).not.toContain('2026-11-27T08:00');
    expect(frame()).toMatch(/^◔ certificate expires in 4 days {2}no incident/m);
    expect(frame().split('\n').length).toBeLessThanOrEqual(24);
    for (const line of frame().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('lists more actions on a taller terminal, with what a run did and where', async () => {
    const { frame } = checkOnScreen(100, 40);
    await expect.poll(frame).toMatch(/ 10m ago\s+deploy-bot\s+ran it now \(api\) at eu-west, us-east/);
  });

  it('shows the last N days and says so when 30 do not fit', async () => {
    const { frame } = checkOnScreen(60, 24);
    await expect.poll(frame).toMatch(/^last 17 days (█+▓▒░) {2}█≥99\.9/m);
    const cells = /^last 17 days (\S+)/m.exec(frame())![1]!;
    expect([...cells]).toHaveLength(17);
  });

  it('marks each location where a run asked for now is under way', async () => {
    const { store, frame } = checkOnScreen(80, 24);
    store.setState({
      checkAction: {
        state: 'done',
        kind: 'run',
        checkId: 'c1',
        message: 'Payments: 2 runs asked for',
        at: NOW,
      },
      runWatch: {
        checkId: 'c1',
        checkName: 'Payments',
        landed: [],
        finished: false,
        runs: [
          {
            runId: 'r1',
            checkId: 'c1',
            location: 'eu-west',
            state: 'running',
            triggeredBy: 'manual',
            queuedAt: '',
          },
          {
            runId: 'r2',
            checkId: 'c1',
            location: 'us-east',
            state: 'skipped',
            triggeredBy: 'manual',
            queuedAt: '',
            reason: 'no runner connected',
          },
        ],
      },
    });
    await expect.poll(frame).toMatch(/Frankfurt \(eu-west\)\s+running…/);
    expect(frame()).toMatch(/Virginia \(us-east\)\s+✔ passing/);
    expect(frame()).toContain('Payments now:  eu-west running…  us-east skipped: no runner connected');
    expect(frame().split('\n').length).toBeLessThanOrEqual(24);
  });
});

/* eslint-disable no-control-regex -- reading frames without colour codes */
// Issue 36: one column rule for every table, and the HOLD column, at the sizes
// where they were seen, with a real store.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/domain/sanitize.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import type { AlertChannel, CheckStatus } from '../../src/store/types.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { boardColumns } from '../../src/ui/views/board/columns.js';
import { sampleStatus } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const lines = (frame: string | undefined) => plain(frame).split('\n');

function draw(store: ConsoleStore, ascii = false) {
  const view = render(<App store={store} actions={noop} theme={createTheme({ color: true, ascii })} />);
  unmount = view.unmount;
  return view;
}

const NAME = 'Checkout through the EU payment'; // 31 cells

function board(cols: number, rows: number, extra: CheckStatus[] = []): ConsoleStore {
  const store = createConsoleStore({ label: 'prod', host: 'mon:443' });
  store.getState().setSize(cols, rows);
  const list = [
    sampleStatus('long', {
      checkName: NAME,
      status: 'failing',
      tags: ['prod', 'payments'],
      group: { id: 'pay', name: 'Payments' },
    }),
    ...Array.from({ length: 4 }, (_, i) => sampleStatus(`ok${i}`, { checkName: `Healthy ${i}` })),
    ...extra,
  ];
  store.getState().applyStatuses(list, null, Date.now());
  return store;
}

describe('the board keeps what identifies a row whole (issue 36)', () => {
  it.each([100, 120])('does not cut a 31-character check name at %i columns', async (cols) => {
    const { lastFrame } = draw(board(cols, 30));
    await expect.poll(() => plain(lastFrame())).toContain('Healthy 3');
    expect(plain(lastFrame())).toContain(NAME);
    // GROUP and TAGS appear only once the name is whole: at 120 there is room for them.
    if (cols === 120) expect(plain(lastFrame())).toMatch(/GROUP.*TAGS/);
    for (const line of lines(lastFrame())) expect(displayWidth(line)).toBeLessThanOrEqual(cols);
  });

  it('drops group and tags before it cuts the name at 80 columns', async () => {
    const { lastFrame } = draw(board(80, 24));
    await expect.poll(() => plain(lastFrame())).toContain(NAME);
    expect(plain(lastFrame())).not.toMatch(/GROUP|TAGS/);
    expect(plain(lastFrame())).toContain('AVAIL');
  });
});

describe('the HOLD column (issue 36)', () => {
  const now = Date.now();
  const held = [
    sampleStatus('silenced', {
      checkName: 'Search',
      status: 'failing',
      maintenance: {
        id: 'mw1',
        name: 'DB upgrade',
        endsAt: new Date(now + 42 * 60_000 + 30_000).toISOString(),
        mode: 'silence',
      },
    }),
    sampleStatus('window', {
      checkName: 'Reports',
      status: 'unknown',
      maintenance: {
        id: 'mw2',
        name: 'Freeze',
        endsAt: new Date(now + 2 * 3_600_000 + 30_000).toISOString(),
        mode: 'pause',
      },
    }),
    sampleStatus('person', {
      checkName: 'Legacy API',
      paused: { by: 'alice', since: new Date(now - 3_600_000).toISOString() },
    }),
    sampleStatus('cert', {
      checkName: 'Shop TLS',
      certificate: { daysRemaining: 9, validTo: new Date(now + 9.5 * 86_400_000).toISOString() },
    }),
    sampleStatus('certok', {
      checkName: 'Blog TLS',
      certificate: { daysRemaining: 60, validTo: new Date(now + 60.5 * 86_400_000).toISOString() },
    }),
  ];
  const row = (frame: string | undefined, name: string) => lines(frame).find((l) => l.includes(name)) ?? '';

  it('says a red check is silenced, with the time left, even at 80 columns', async () => {
    const { lastFrame } = draw(board(80, 24, held));
    await expect.poll(() => plain(lastFrame())).toContain('HOLD');
    expect(row(lastFrame(), 'Search')).toMatch(/FAILING.*∅ 42m/);
    expect(row(lastFrame(), 'Reports')).toContain('‖ 2h');
    expect(row(lastFrame(), 'Legacy API')).toContain('‖ alice');
    expect(row(lastFrame(), 'Shop TLS')).toContain('◔ 9d');
    expect(row(lastFrame(), 'Blog TLS')).not.toContain('◔');
    for (const line of lines(lastFrame())) expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });

  it('draws the marks in ASCII with --ascii', async () => {
    const { lastFrame } = draw(board(80, 24, held), true);
    await expect.poll(() => plain(lastFrame())).toContain('HOLD');
    expect(row(lastFrame(), 'Search')).toContain('S 42m');
    expect(row(lastFrame(), 'Legacy API')).toContain('P alice');
    expect(row(lastFrame(), 'Shop TLS')).toContain('C 9d');
    const table = lines(lastFrame()).slice(2, -1).join('\n');
    expect(table).toMatch(/^[\x20-\x7e\n]*$/);
  });

  it('is not drawn while no check is held', async () => {
    const { lastFrame } = draw(board(120, 30));
    await expect.poll(() => plain(lastFrame())).toContain(NAME);
    expect(plain(lastFrame())).not.toContain('HOLD');
  });
});

describe('the channels list at 200 columns (issue 36)', () => {
  it('shows SUBSCRIBED whole while a long target takes only what is left', async () => {
    const store = createConsoleStore({ label: 'prod', host: 'mon:443' });
    store.getState().setSize(200, 30);
    const at = new Date().toISOString();
    const channel: AlertChannel = {
      id: 1,
      type: 'WEBHOOK',
      name: 'Incident bot',
      createdAt: at,
      updatedAt: at,
      config: { url: `https://hooks.example.com/${'x'.repeat(120)}`, method: 'POST' },
      subscriptions: { checks: ['checkout-eu', 'payments-api'], groups: ['core', 'payments'] },
      lastDelivery: null,
      failures24h: 0,
    };
    store.getState().setList('channels', {
      state: 'ok',
      data: { data: [channel], meta: { currentPage: 1, totalPages: 1, totalItems: 1, limit: 20 } },
      at: Date.now(),
    });
    store.getState().pushView({ name: 'channels' });
    const { lastFrame } = draw(store);
    await expect.poll(() => plain(lastFrame())).toContain('Incident bot');
    expect(plain(lastFrame())).toContain('group:core, group:payments, checkout-eu, payments-api');
    expect(plain(lastFrame())).toContain('SUBSCRIBED');
    for (const line of lines(lastFrame())) expect(displayWidth(line)).toBeLessThanOrEqual(200);
  });
});

describe("the board's cheap measures", () => {
  it('say what each cell needs, so measuring 10,000 checks builds no cells', () => {
    const theme = createTheme({ color: true, ascii: false });
    const now = Date.now();
    const rows = [
      ...Object.values(board(120, 30).getState().checks),
      sampleStatus('held', {
        checkName: 'Zürich – 東京 checkout',
        maintenance: { id: 'm', name: 'w', endsAt: new Date(now + 3_600_000).toISOString(), mode: 'silence' },
        paused: { by: 'bob', since: new Date(now).toISOString() },
        tags: ['ü', '東'],
        currentIncident: {
          id: 'i',
          severity: 'critical',
          startedAt: new Date(now).toISOString(),
          title: 't',
        },
        currentAlert: null,
        alertAfterFailures: 3,
        statusReason: 'failing at 2 locations',
      }),
    ];
    for (const c of boardColumns(theme, now, 2, { key: 'status', descending: false }))
      for (const row of rows)
        if (c.measure)
          expect(c.measure(row), `${c.key} of ${row.checkId}`).toBe(displayWidth(c.cell(row).text));
  });
});

describe('the REASON column says why no page went out (issue 36)', () => {
  it('adds "incident open; no alert" to the reason of a failing check with an incident and no alert, at 200 columns', async () => {
    const alternating = sampleStatus('alt', {
      checkName: 'Card gateway',
      status: 'failing',
      currentIncident: { id: 'i', severity: 'critical', startedAt: new Date().toISOString(), title: 't' },
      currentAlert: null,
      alertAfterFailures: 2,
      statusReason: 'failing at 2 locations',
    });
    const { lastFrame } = draw(board(200, 30, [alternating]));
    await expect.poll(() => plain(lastFrame())).toContain('REASON');
    expect(lines(lastFrame()).find((l) => l.includes('Card gateway'))).toContain(
      'failing at 2 locations; incident open; no alert: fewer than 2 failures in a row',
    );
  });
});

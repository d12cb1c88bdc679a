/* eslint-disable no-control-regex -- these tests look for control characters on purpose */
// Frames of the board with a real store, through ink-testing-library.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/domain/sanitize.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };

function draw(store: ConsoleStore, opts: { color?: boolean; ascii?: boolean } = {}) {
  const view = render(
    <App
      store={store}
      actions={noop}
      theme={createTheme({ color: opts.color ?? true, ascii: opts.ascii ?? false })}
    />,
  );
  unmount = view.unmount;
  return view;
}

function storeWith(cols: number, rows: number, n = 3) {
  const store = createConsoleStore({ label: 'prod', host: 'mon.example.com:443' });
  store.getState().setSize(cols, rows);
  const list = [
    sampleStatus('pay', {
      checkName: 'Payments API',
      status: 'failing',
      currentIncident: { id: 'i', severity: 'critical', startedAt: '2026-11-22T09:00:00.000Z', title: 't' },
    }),
    sampleStatus('search', { checkName: 'Search', status: 'degraded', tags: ['prod', 'search'] }),
    ...Array.from({ length: n }, (_, i) => sampleStatus(`ok${i}`, { checkName: `Healthy ${i}` })),
  ];
  store
    .getState()
    .applyStatuses(
      list,
      sampleSummary({ totalChecks: list.length, passing: n, failing: 1, degraded: 1, activeIncidents: 1 }),
      Date.now(),
    );
  return store;
}

const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const lines = (frame: string | undefined) => plain(frame).split('\n');

describe('board frames', () => {
  it('shows the header counts and one row per check, worst first, at 120x40', async () => {
    const store = storeWith(120, 40);
    const { lastFrame } = draw(store);
    await expect.poll(() => lastFrame()).toContain('Payments API');
    const frame = lastFrame()!;
    expect(frame).toContain('prod');
    expect(frame).toContain('mon.example.com:443');
    expect(frame).toMatch(/✖ 1 failing/);
    expect(frame).toMatch(/▲ 1 degraded/);
    const rows = lines(frame);
    const pay = rows.findIndex((l) => l.includes('Payments API'));
    const search = rows.findIndex((l) => l.includes('Search'));
    expect(pay).toBeLessThan(search);
    expect(rows[pay]).toMatch(/FAILING/);
    expect(frame).toContain('TAGS');
    expect(lines(frame).length).toBeLessThanOrEqual(40);
  });

  it('drops the least important columns first at 80x24 and never draws more lines than rows', async () => {
    const store = storeWith(80, 24, 60);
    const { lastFrame } = draw(store);
    await expect.poll(() => lastFrame()).toContain('Payments API');
    const frame = lastFrame()!;
    expect(frame).not.toContain('TAGS');
    // Short names leave room for a short group; a long name is whole first (columns.test.tsx).
    expect(frame).toContain('AVAIL');
    expect(lines(frame).length).toBeLessThanOrEqual(24);
    for (const line of lines(frame)) expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });

  it('says the terminal is too small below the minimum', async () => {
    const { lastFrame } = draw(storeWith(40, 10));
    await expect.poll(() => lastFrame()).toContain('Terminal too small');
  });

  it('writes no colour codes when colour is off, and only ASCII in ASCII mode', async () => {
    const store = storeWith(120, 30);
    const { lastFrame } = draw(store, { color: false, ascii: true });
    await expect.poll(() => lastFrame()).toContain('Payments API');
    expect(lastFrame()).not.toMatch(/\u001b\[(3|9)\d(;\d+)*m/);
    expect(lastFrame()).toMatch(/^[\u0000-\u007f]*$/);
    expect(lastFrame()).toContain('X FAILING');
  });

  it('gives degraded and an incident each its own ASCII mark (issue 36)', async () => {
    const store = storeWith(120, 30, 0);
    const both = sampleStatus('both', {
      checkName: 'Degraded with incident',
      status: 'degraded',
      currentIncident: { id: 'j', severity: 'minor', startedAt: '2026-11-22T09:00:00.000Z', title: 't' },
    });
    store.getState().applyStatuses([...Object.values(store.getState().checks), both], null, 2);
    const { lastFrame } = draw(store, { color: false, ascii: true });
    await expect.poll(() => lastFrame()).toContain('Degraded with incident');
    const row = lines(lastFrame()).find((l) => l.includes('Degraded with incident'))!;
    expect(row).toMatch(/! DEGRADED +\* Degraded with incident/);
    expect(lines(lastFrame()).find((l) => l.includes('STATUS'))).toMatch(/STATUS\S* +\* CHECK/);
  });

  it('draws empty cells as ASCII in ASCII mode (issue 13)', async () => {
    const store = storeWith(120, 30, 0);
    const empty = sampleStatus('new', {
      checkName: 'Never ran',
      status: 'unknown',
      availability: { percentage: null, period: '24h' },
      performance: { averageResponseTime: null, p95ResponseTime: null, trend: 'stable' },
      lastExecution: null,
    });
    store.getState().applyStatuses([...Object.values(store.getState().checks), empty], null, 2);
    const { lastFrame } = draw(store, { color: false, ascii: true });
    await expect.poll(() => lastFrame()).toContain('Never ran');
    expect(lastFrame()).toMatch(/^[\u0000-\u007f]*$/);
    expect(
      lastFrame()!
        .split('\n')
        .find((l) => l.includes('Never ran')),
    ).toMatch(/ - +- +- /);
  });

  it('shows no response time for a heartbeat check, on the board and in its detail (issue 13)', async () => {
    const store = storeWith(140, 30, 0);
    const beat = sampleStatus('beat', {
      checkName: 'Nightly backup',
      checkType: 'heartbeat',
      performance: { averageResponseTime: 0, p95ResponseTime: 0, trend: 'stable' },
      lastExecution: {
        timestamp: new Date().toISOString(),
        status: 'success',
        responseTime: 0,
        location: 'eu-west',
      },
    });
    store.getState().applyStatuses([...Object.values(store.getState().checks), beat], null, 2);
    const { lastFrame, stdin } = draw(store);
    await expect.poll(() => lastFrame()).toContain('Nightly backup');
    const row = () =>
      lastFrame()!
        .split('\n')
        .find((l) => l.includes('Nightly backup'))!;
    expect(row()).not.toMatch(/\b0 ms/);
    expect(row()).toContain('—');
    store.getState().select('beat');
    stdin.write('\r');
    await expect.poll(() => lastFrame()).toMatch(/avg — {2}p95 —/);
    expect(lastFrame()).not.toMatch(/\b0 ms/);
  });

  it('strips escape sequences from names and keeps columns aligned with wide characters', async () => {
    const store = storeWith(120, 30, 0);
    store
      .getState()
      .applyStatuses(
        [
          sampleStatus('evil', { checkName: 'Evil\u001b[2J\u001b]0;title\u0007 name' }),
          sampleStatus('wide', { checkName: '日本語のチェック 🔥' }),
        ],
        null,
        Date.now(),
      );
    const { lastFrame } = draw(store);
    await expect.poll(() => lastFrame()).toContain('Evil name');
    expect(lastFrame()).not.toContain('\u001b[2J');
    expect(lastFrame()).not.toContain('\u001b]0');
  });

  it('filters as you type with / and jumps to failing checks with f', async () => {
    const store = storeWith(120, 30);
    const { lastFrame, stdin } = draw(store);
    await expect.poll(() => lastFrame()).toContain('Healthy 0');
    stdin.write('/');
    await expect.poll(() => store.getState().focus).toBe('filter');
    stdin.write('search');
    await expect.poll(() => lastFrame()).not.toContain('Healthy 0');
    expect(plain(lastFrame())).toContain('/search');
    stdin.write('\u001b');
    await expect.poll(() => lastFrame()).toContain('Healthy 0');
    // The filter left the selection on Search, and clearing it keeps it there.
    expect(store.getState().selectedId).toBe('search');
    stdin.write('j');
    await expect.poll(() => store.getState().selectedId).toBe('ok0');
    stdin.write('f');
    await expect.poll(() => store.getState().selectedId).toBe('pay');
  });

  it('acts on every key of a chunk that arrived in one read (slow SSH, tmux, paste)', async () => {
    const store = storeWith(120, 30);
    const { lastFrame, stdin } = draw(store);
    await expect.poll(() => lastFrame()).toContain('Healthy 0');
    stdin.write('jj');
    await expect.poll(() => store.getState().selectedId).toBe('ok0');
    // Open the filter, type into it and apply it, all in one chunk.
    stdin.write('/healthy 1\r');
    await expect.poll(() => store.getState().focus).toBe('list');
    expect(store.getState().filterText).toBe('healthy 1');
    await expect.poll(() => lastFrame()).not.toContain('Payments API');
    stdin.write('g\r');
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('check');
  });

  it('shows the polling cycle of a large account in the header and in ? help, and only then', async () => {
    const store = storeWith(120, 40);
    const { lastFrame, stdin } = draw(store);
    await expect.poll(() => lastFrame()).toContain('Payments API');
    expect(lastFrame()).not.toContain('all checks every');
    const plan = { tiered: true, sweepEvery: 10, minGap: 3 };
    store
      .getState()
      .applyStatusChanges({ changed: [], removed: [], summary: null, tiers: { plan, refreshMs: 5_000 } }, 2);
    await expect.poll(() => lastFrame()).toContain('all checks every 50 s');
    stdin.write('?');
    await expect
      .poll(() => lastFrame())
      .toContain('Polling: failing+degraded every 5 s, all checks every 50 s');
  });

  it('opens the help overlay from the keymap with ?', async () => {
    const store = storeWith(120, 40);
    const { lastFrame, stdin } = draw(store);
    await expect.poll(() => lastFrame()).toContain('Payments API');
    stdin.write('?');
    await expect.poll(() => lastFrame()).toContain('jump to the next failing check');
    stdin.write('?');
    await expect.poll(() => lastFrame()).toContain('Payments API');
  });
});

describe('the help at 80x24 (issue 36)', () => {
  it('lists the marks with their --ascii forms, and scrolls to its end with j and pgdn', async () => {
    const store = storeWith(80, 24);
    const { lastFrame, stdin } = draw(store, { color: false });
    await expect.poll(() => lastFrame()).toContain('Payments API');
    stdin.write('?');
    await expect.poll(() => plain(lastFrame())).toContain('Keys (esc or ? to close)');
    expect(plain(lastFrame())).toMatch(/lines 1-\d+ of \d+ ─ j\/k, pgdn\/pgup scroll/);
    expect(plain(lastFrame()).split('\n').length).toBeLessThanOrEqual(24);
    expect(plain(lastFrame())).not.toContain('scroll the help up');
    stdin.write('j');
    await expect.poll(() => plain(lastFrame())).toMatch(/lines 2-/);
    // A description wider than the overlay goes on under itself: nothing is cut.
    expect(plain(lastFrame())).not.toContain('…');
    expect(plain(lastFrame())).toMatch(/\n│ {22}\S/);
    // The board's keys first, then what its marks mean.
    const topLine = () => /lines (\d+)-/.exec(plain(lastFrame()))![1];
    for (let i = 0; i < 40 && !/↗→↘ +\^=v +TR: response time trend/.test(plain(lastFrame())); i++) {
      const at = topLine();
      stdin.write('j');
      await expect.poll(topLine).not.toBe(at);
    }
    const frame = plain(lastFrame());
    expect(frame).toContain('Marks (as drawn, then with --ascii)');
    expect(frame).toMatch(/▲ +! +degraded/);
    expect(frame).toMatch(/! +\* +an open incident/);
    expect(frame).toMatch(/✉ +@ +a failing check whose page/);
    expect(frame).toMatch(/↗→↘ +\^=v +TR: response time trend/);
    for (let i = 0; i < 20; i++) stdin.write('\u001b[6~');
    await expect.poll(() => plain(lastFrame())).toContain('scroll the help up');
    const end = plain(lastFrame());
    const [, shown, total] = /lines \d+-(\d+) of (\d+)/.exec(end)!;
    expect(shown).toBe(total);
    stdin.write('k');
    await expect.poll(() => plain(lastFrame())).not.toMatch(new RegExp(`-${total} of`));
  });
});

describe('the help of keys wider than their column', () => {
  it('puts them on a line of their own and the description under it, in the column', async () => {
    const store = storeWith(80, 24);
    const { lastFrame, stdin } = draw(store, { color: false });
    await expect.poll(() => lastFrame()).toContain('Payments API');
    stdin.write('?');
    await expect.poll(() => plain(lastFrame())).toContain('Keys (esc or ? to close)');
    for (let i = 0; i < 20; i++) stdin.write('\u001b[6~');
    await expect.poll(() => plain(lastFrame())).toContain('scroll the help up');
    // "pagedown, ctrl+d, space a page down" ran the keys into their description.
    expect(plain(lastFrame())).toMatch(/│ {3}pagedown, ctrl\+d, space +│\n│ {22}a page down +│/);
  });
});

describe('the help at 60x12 for a read key', () => {
  it('wraps the note of the keys it may not press, and each such key says only what this key is', async () => {
    const store = storeWith(60, 12);
    store.getState().setMe({ accountId: 'a', keyName: 'wall', role: 'read' } as never);
    const { lastFrame, stdin } = draw(store, { color: false });
    await expect.poll(() => lastFrame()).toContain('Payments API');
    stdin.write('?');
    await expect.poll(() => plain(lastFrame())).toContain('Keys (esc or ? to close)');
    const frame = plain(lastFrame());
    expect(frame).toMatch(/│ M, a, ctrl\+r, z, v, e, \+: need an operate key; this +│\n│ {3}key is read +│/);
    expect(frame).not.toContain('…');
    expect(frame.split('\n').length).toBeLessThanOrEqual(12);
  });
});

describe('the REASON column (issue 36)', () => {
  it('says why a status is what it is on a wide board, and drops first on a narrow one', async () => {
    const store = storeWith(200, 30, 0);
    const why = sampleStatus('br', {
      checkName: 'Checkout browser',
      status: 'unknown',
      statusReason: 'browser checks do not run yet',
    });
    store.getState().applyStatuses([...Object.values(store.getState().checks), why], null, 2);
    const { lastFrame } = draw(store, { color: false });
    await expect.poll(() => plain(lastFrame())).toContain('REASON');
    expect(lines(lastFrame()).find((l) => l.includes('Checkout browser'))).toContain(
      'browser checks do not run yet',
    );
    store.getState().setSize(120, 30);
    await expect.poll(() => plain(lastFrame())).not.toContain('REASON');
    expect(plain(lastFrame())).toContain('Checkout browser');
  });
});

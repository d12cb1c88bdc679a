/* eslint-disable no-control-regex -- reading frames without colour codes */
// The board's two header lines at the narrowest terminal the console takes (60
// columns): the host whole and apart from the connection state, the counts with
// their numbers (at 60 the label ran into "live" and cut the port, and "(2 of 21)"
// read "(2 of 2…").
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/domain/sanitize.js';
import { createConsoleStore } from '../../src/store/create-store.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { identity } from '../../src/ui/views/board/header.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

function header(cols: number) {
  const store = createConsoleStore({ label: 'demo, status page /status/status', host: '127.0.0.1:41595' });
  store.getState().setSize(cols, 20);
  const statuses = [
    sampleStatus('new', { status: 'unknown', lastExecution: null }),
    ...Array.from({ length: 20 }, (_, i) => sampleStatus(`ok${i}`)),
  ];
  const summary = sampleSummary({
    totalChecks: 21,
    passing: 17,
    failing: 3,
    activeIncidents: 4,
    activeAlerts: 3,
  });
  store.getState().applyStatuses(statuses, summary, Date.now());
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: true, ascii: false })} />,
  );
  unmount = view.unmount;
  return () => plain(view.lastFrame()).split('\n').slice(0, 2);
}

describe('the board header', () => {
  it('at 60 columns cuts the label, keeps the host whole and the connection state apart', async () => {
    const lines = header(60);
    await expect.poll(() => lines()[0]).toContain('connecting');
    const [first, counts] = lines();
    expect(first).toBe('Checkwall ─ demo, status page … ─ 127.0.0.1:41595 connecting');
    expect(counts).toBe('✖ 3  ▲ 0  … 1 starting  ✔ 17  inc 4  alerts 3  avail 99.5%');
    for (const line of lines()) expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });

  it('at 100 columns shortens the first runs first, and keeps the words of the rest', async () => {
    const lines = header(100);
    await expect.poll(() => lines()[0]).toContain('connecting');
    expect(lines()[1]).toBe(
      '✖ 3 failing  ▲ 0 degraded  … 1 starting  ✔ 17 passing  incidents 4  alerts 3  avail 99.5%',
    );
  });

  it('says it all in words where there is room', async () => {
    const lines = header(130);
    await expect.poll(() => lines()[0]).toContain('connecting');
    expect(lines()[0]).toMatch(
      /^Checkwall ─ demo, status page \/status\/status ─ 127\.0\.0\.1:41595 +connecting$/,
    );
    expect(lines()[1]).toBe(
      '✖ 3 failing  ▲ 0 degraded  … first runs in progress (1 of 21)  ✔ 17 passing  incidents 4  alerts 3  avail 99.5%',
    );
  });
});

describe('identity: what follows "Checkwall"', () => {
  it('leaves the label out before it cuts the host, and cuts the host last', () => {
    expect(identity('prod', 'mon:443', 40, '─', '…')).toBe(' ─ prod ─ mon:443');
    expect(identity('production, eu', 'monitoring.example.com:443', 50, '─', '…')).toBe(
      ' ─ producti… ─ monitoring.example.com:443',
    );
    expect(identity('production, eu', 'monitoring.example.com:443', 40, '─', '…')).toBe(
      ' ─ monitoring.example.com:443',
    );
    expect(identity('production, eu', 'monitoring.example.com:443', 30, '─', '…')).toBe(
      ' ─ monitoring.exampl…',
    );
  });
});

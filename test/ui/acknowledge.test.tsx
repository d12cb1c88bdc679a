// Acknowledging: the alert line and the confirmation agree as soon as the
// service answers (issue 36), not a statuses poll later. 120x40.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleStore } from '../../src/store/create-store.js';
import type { CheckStatus } from '../../src/store/types.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

const openedAt = new Date(Date.now() - 120_000).toISOString();
/** Payments, failing, with an open alert not yet acknowledged (or the alert given). */
const payments = (
  currentAlert: CheckStatus['currentAlert'] = { id: 'al-1', openedAt, acknowledgedAt: null, undelivered: 0 },
) => sampleStatus('c1', { checkName: 'Payments', status: 'failing', currentAlert });

/** The console at cols x rows with `check` on the board, its view open unless `open` is false. */
function mount(cols: number, rows: number, check: CheckStatus, open = true) {
  const store = createConsoleStore({ label: 'prod', refreshMs: 60_000 });
  store.getState().setSize(cols, rows);
  store.getState().applyStatuses([check], sampleSummary({ failing: 1, passing: 0 }), Date.now());
  if (open) store.getState().openCheck('c1', false);
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
  );
  unmount = view.unmount;
  return { store, view, frame: () => plain(view.lastFrame()) };
}

describe('acknowledging an alert', () => {
  it('shows the alert acknowledged in the same frame as the confirmation', async () => {
    const { store, view, frame } = mount(120, 40, payments());
    await expect.poll(frame).toMatch(/not acknowledged \(a acknowledges\)/);
    view.stdin.write('a');
    await expect.poll(frame).toContain('Acknowledge the alert of Payments?');
    view.stdin.write('y');
    await expect.poll(() => store.getState().ack.state).toBe('sending');
    const at = new Date().toISOString();
    store.getState().acknowledgeDone({ ok: true, value: { acknowledgedAt: at } });
    await expect.poll(frame).toMatch(/alert acknowledged at \d\d:\d\d:\d\d/);
    expect(frame()).not.toContain('not acknowledged');
    expect(frame()).toMatch(/Alert open \S+, acknowledged/);
    expect(store.getState().checks['c1']?.currentAlert?.acknowledgedAt).toBe(at);
  });
});

describe('the check view deliveries at 80x24', () => {
  it('says how many more deliveries there are than it shows, and D shows them', async () => {
    const { store, view, frame } = mount(80, 24, payments());
    const data = ['Pager', 'Slack ops', 'Mail team', 'Backup hook'].map((name, i) => ({
      id: `n${i}`,
      event: 'failure' as const,
      status: 'sent' as const,
      channel: { id: i + 1, name, type: 'WEBHOOK' as const },
      check: { id: 'c1', name: 'Payments' },
      alertId: 'al-1',
      attempts: 1,
      lastError: null,
      createdAt: openedAt,
      sentAt: openedAt,
      nextAttemptAt: null,
    }));
    store.getState().setAlertHistory('c1', {
      state: 'ok',
      at: Date.now(),
      data: { data, meta: { currentPage: 1, totalPages: 2, totalItems: 9, limit: 6 } },
    });
    await expect.poll(frame).toContain('Pager (WEBHOOK)');
    expect(frame()).not.toContain('Slack ops');
    expect(frame()).toContain('… 8 more deliveries (D shows the newest 6)');
    view.stdin.write('D');
    await expect.poll(frame).toContain('Backup hook (WEBHOOK)');
    expect(frame()).toContain('… 5 more deliveries (older ones are not fetched)');
    expect(frame().split('\n').length).toBeLessThanOrEqual(24);
  });
});

describe('D with every delivery fetched on screen', () => {
  it('says so, rather than doing nothing visible', async () => {
    const { store, view, frame } = mount(120, 40, sampleStatus('c1', { checkName: 'Payments' }));
    const one = {
      ...{ id: 'n0', event: 'failure' as const, status: 'sent' as const, alertId: 'al-1', attempts: 1 },
      ...{
        channel: { id: 1, name: 'Pager', type: 'WEBHOOK' as const },
        check: { id: 'c1', name: 'Payments' },
      },
      ...{ lastError: null, createdAt: openedAt, sentAt: openedAt, nextAttemptAt: null },
    };
    store.getState().setAlertHistory('c1', {
      state: 'ok',
      at: Date.now(),
      data: { data: [one], meta: { currentPage: 1, totalPages: 1, totalItems: 1, limit: 6 } },
    });
    await expect.poll(frame).toContain('Pager (WEBHOOK)');
    view.stdin.write('D');
    await expect.poll(frame).toContain('D: every delivery fetched is shown');
    const top = store.getState().stack.at(-1);
    expect(top?.name === 'check' && top.allDeliveries).toBeFalsy();
  });
});

describe('the answer to a', () => {
  it('goes with the check view: reopening the check does not show an old answer', async () => {
    const { store, view, frame } = mount(120, 40, payments(), false);
    await expect.poll(frame).toContain('Payments');
    view.stdin.write('\r');
    await expect.poll(frame).toMatch(/not acknowledged \(a acknowledges\)/);
    view.stdin.write('a');
    await expect.poll(frame).toContain('Acknowledge the alert of Payments?');
    view.stdin.write('y');
    await expect.poll(() => store.getState().ack.state).toBe('sending');
    store.getState().acknowledgeDone({ ok: true, value: { acknowledgedAt: new Date().toISOString() } });
    await expect.poll(frame).toMatch(/alert acknowledged at \d\d:\d\d:\d\d/);
    view.stdin.write('\u001b');
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('board');
    view.stdin.write('\r');
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('check');
    await expect.poll(frame).toMatch(/Alert open \S+, acknowledged/);
    expect(frame()).not.toContain('alert acknowledged at');
  });
});

describe('a with nothing to acknowledge', () => {
  it('is not offered in the footer, and pressed says why there', async () => {
    const { store, view } = mount(120, 40, payments(null));
    const footer = () => plain(view.lastFrame()).split('\n').at(-1) ?? '';
    await expect.poll(footer).toContain('P period');
    expect(footer()).not.toContain('a acknowledge');
    view.stdin.write('a');
    await expect.poll(footer).toBe('a: this check has no open alert');
    expect(store.getState().ack).toEqual({ state: 'idle' });
  });
});

// The line an action on a check leaves, at 80x24 with a real store: it names the
// check, goes 10 s after its last change by the store's clock (no sleeps) or when
// its view is left, and a refusal takes its place rather than stacking under it.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleStore } from '../../src/store/create-store.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const T0 = Date.parse('2026-11-27T10:00:00.000Z');

function board() {
  const store = createConsoleStore({ label: 'prod', refreshMs: 60_000 });
  store.getState().setSize(80, 24);
  store.getState().tick(T0);
  const checks = ['Payments', 'Search'].map((name, i) =>
    sampleStatus(`c${i}`, { checkName: name, group: null }),
  );
  store.getState().applyStatuses(checks, sampleSummary({ totalChecks: 2, passing: 2 }), T0);
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
  );
  unmount = view.unmount;
  return { store, frame: () => plain(view.lastFrame()) };
}

function pause(store: ReturnType<typeof board>['store'], id: string) {
  store.getState().askPauseResume(id);
  store.getState().answerCheckAction(true);
  const check = store.getState().checks[id]!;
  store.getState().checkActionDone({
    ok: true,
    value: { kind: 'pause', status: { ...check, paused: { by: 'ops', since: new Date(T0).toISOString() } } },
  });
}

describe('the action line at 80x24', () => {
  it('names its check and goes 10 s after it was said', async () => {
    const { store, frame } = board();
    await expect.poll(frame).toContain('Search');
    pause(store, 'c0');
    await expect.poll(frame).toContain('Payments paused by ops since 10:00:00 UTC');
    store.getState().tick(T0 + 10_000);
    await expect.poll(frame).not.toContain('paused by ops');
  });

  it('goes when its view is left, and does not follow into another check', async () => {
    const { store, frame } = board();
    await expect.poll(frame).toContain('Search');
    store.getState().openCheck('c0', false);
    pause(store, 'c0');
    await expect.poll(frame).toContain('Payments paused by ops');
    store.getState().popView();
    store.getState().openCheck('c1', false);
    await expect.poll(frame).toMatch(/passing\s+Search/);
    expect(frame()).not.toContain('paused by ops');
  });

  it('gives way to a refusal: one message at a time', async () => {
    const { store, frame } = board();
    await expect.poll(frame).toContain('Search');
    pause(store, 'c0');
    await expect.poll(frame).toContain('Payments paused by ops');
    store.getState().refuseKey('M: needs an operate key; this key is read');
    await expect.poll(frame).toContain('M: needs an operate key');
    expect(frame()).not.toContain('paused by ops');
    store.getState().tick(T0 + 10_000);
    await expect.poll(frame).not.toContain('M: needs an operate key');
  });
});

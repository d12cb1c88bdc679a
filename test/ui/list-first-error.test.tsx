// A list whose first fetch failed: its error, and under it that the list is not there yet and
// is being tried again, not "loading…" as if the error were over. Frames of a real store.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { DEFAULT_FILTERS } from '../../src/store/detail-slice.js';
import type { ErrorInfo, View } from '../../src/store/types.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const refused: ErrorInfo = { kind: 'network', message: 'connect ECONNREFUSED 127.0.0.1:8080' };

const FAILED: Array<[View, string, (s: ConsoleStore) => void]> = [
  [
    { name: 'channels' },
    'channels',
    (s) => s.getState().setList('channels', { state: 'error', error: refused }),
  ],
  [
    { name: 'dashboards' },
    'dashboards',
    (s) => s.getState().setList('dashboards', { state: 'error', error: refused }),
  ],
  [{ name: 'maintenance' }, 'windows', (s) => s.getState().setWindows({ state: 'error', error: refused })],
  [
    { name: 'metrics', checkId: null, filters: DEFAULT_FILTERS, scroll: 0 },
    'catalogue',
    (s) => s.getState().setCatalogue({ state: 'error', error: refused }),
  ],
];

describe('a list whose first fetch failed', () => {
  it.each(FAILED)('%o says its error and that it tries again', async (view, what, fail) => {
    const store = createConsoleStore({ label: 'demo', host: 'h', refreshMs: 60_000 });
    store.getState().setSize(100, 24);
    const app = render(
      <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
    );
    unmount = app.unmount;
    store.getState().pushView(view);
    await expect.poll(() => plain(app.lastFrame())).toContain(`loading the ${what}…`);
    fail(store);
    await expect.poll(() => plain(app.lastFrame())).toContain(`no ${what} yet: trying again`);
    const frame = plain(app.lastFrame());
    expect(frame).toContain('ECONNREFUSED');
    expect(frame).not.toContain('loading');
  });
});

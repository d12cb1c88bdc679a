// Maintenance windows (docs/maintenance.md): the window
// over the open check, the `:maintenance` list, and the three writes a person
// makes (start, end, extend). A write runs once per answer given and is never
// retried by itself: its outcome, good or bad, goes back to the screen.
import type { MaintenanceWindow } from '../../api/schemas/maintenance.js';
import type { ConsoleState } from '../state.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';
import { actionFeed } from './action-feed.js';

export const silenceFeed: Feed = actionFeed({
  key: 'silence',
  pending: (s) => (s.silence.state === 'sending' ? s.silence : undefined),
  act: (client, silence, signal) => client.createMaintenanceWindow(silence.body, { signal }),
  done: (s, outcome) => s.silenceDone(outcome.ok ? { ok: true, window: outcome.value } : outcome),
});

/** The id of the window over the open check, as its status names it. */
const openWindowId = (s: ConsoleState): string | null => {
  const view = selectView(s);
  return view.name === 'check' ? (s.checks[view.checkId]?.maintenance?.id ?? null) : null;
};

export const checkWindowFeed: Feed = {
  key: 'check-window',
  active: (s) => openWindowId(s) !== null,
  target: (s) => `${openWindowId(s)}|${s.maintenanceVersion}`,
  async run({ client, store, signal, now }) {
    const id = openWindowId(store.getState());
    if (id === null) return;
    const previous = store.getState().checkWindow;
    const data = previous?.id === id && 'data' in previous.remote ? previous.remote.data : undefined;
    try {
      const window = await client.maintenanceWindow(id, { signal });
      store.getState().setCheckWindow(id, { state: 'ok', data: window, at: now() });
    } catch (error) {
      if (!signal.aborted)
        store.getState().setCheckWindow(id, { state: 'error', error: toErrorInfo(error), data });
      throw error;
    }
  },
};

export const windowsFeed: Feed = {
  key: 'maintenance-windows',
  active: (s) => selectView(s).name === 'maintenance',
  target: (s) => String(s.windowsVersion),
  async run({ client, store, signal, now }) {
    const previous = store.getState().windows;
    const read = (state: 'active' | 'scheduled') =>
      client.maintenanceWindows({ state, limit: 100 }, { signal }).then((page) => page.data);
    try {
      const [active, scheduled] = await Promise.all([read('active'), read('scheduled')]);
      const data: MaintenanceWindow[] = [...active, ...scheduled];
      store.getState().setWindows({ state: 'ok', data, at: now() });
    } catch (error) {
      const data = 'data' in previous ? previous.data : undefined;
      if (!signal.aborted) store.getState().setWindows({ state: 'error', error: toErrorInfo(error), data });
      throw error;
    }
  },
};

export const windowActionFeed: Feed = actionFeed({
  key: 'maintenance-action',
  pending: (s) => (s.windowAction.state === 'sending' ? s.windowAction : undefined),
  act: (client, action, signal) =>
    'delete' in action.change
      ? client.deleteMaintenanceWindow(action.id, { signal })
      : client.patchMaintenanceWindow(action.id, action.change.patch, { signal }),
  done: (s, outcome) => s.windowActionDone(outcome.ok ? { ok: true, window: outcome.value } : outcome),
});

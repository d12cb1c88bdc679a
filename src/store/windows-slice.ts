// Maintenance windows on screen (docs/maintenance.md): the one over the open check (read by
// the id its status names), and the `:maintenance` list of active and scheduled
// windows, where `e` ends one now (asked first) and `+` extends one by a
// duration (its current end plus that).
import type { StateCreator } from 'zustand/vanilla';
import type { MaintenanceWindow } from '../api/schemas/maintenance.js';
import { formatClock } from '../domain/format.js';
import { parseUntil } from '../domain/maintenance-time.js';
import { stepTo } from '../domain/step.js';
import type { ConsoleState, WindowsSlice } from './state.js';
import { remoteData } from './detail-slice.js';

export type { WindowAction, WindowsSlice } from './state.js';

/** When the window (its current occurrence) ends. */
export const windowEnd = (w: MaintenanceWindow): string => w.occurrence?.endsAt ?? w.endsAt;

export const createWindowsSlice: StateCreator<ConsoleState, [], [], WindowsSlice> = (set, get) => {
  const selected = () => remoteData(get().windows)?.find((w) => w.id === get().selectedWindowId);
  return {
    checkWindow: null,
    windows: { state: 'idle' },
    selectedWindowId: null,
    windowsVersion: 0,
    windowAction: { state: 'idle' },
    setCheckWindow: (id, remote) => set({ checkWindow: { id, remote } }),
    setWindows(windows) {
      set({ windows });
      const ids = (remoteData(windows) ?? []).map((w) => w.id);
      if (!ids.includes(get().selectedWindowId ?? '')) set({ selectedWindowId: ids[0] ?? null });
    },
    moveWindow(delta) {
      const ids = (remoteData(get().windows) ?? []).map((w) => w.id);
      const id = stepTo(ids, get().selectedWindowId, delta);
      if (id !== undefined) set({ selectedWindowId: id });
    },
    askEndWindow() {
      const w = selected();
      if (!w || get().windowAction.state === 'sending') return;
      if (w.source === 'config')
        return set({ windowAction: { state: 'done', ok: false, message: configOnly(w) } });
      set({ windowAction: { state: 'confirm', id: w.id, name: w.name, cancel: w.state === 'scheduled' } });
    },
    answerEndWindow(yes) {
      const a = get().windowAction;
      if (a.state !== 'confirm') return;
      if (!yes) return set({ windowAction: { state: 'idle' } });
      const change = a.cancel ? { delete: true as const } : { patch: { endsAt: 'now' as const } };
      set({ windowAction: { state: 'sending', id: a.id, name: a.name, change } });
    },
    ...extendActions(set, get, selected),
    windowActionDone(outcome) {
      const a = get().windowAction;
      if (a.state !== 'sending') return;
      const what = 'delete' in a.change ? 'cancel' : a.change.patch.endsAt === 'now' ? 'end' : 'extend';
      const message = !outcome.ok
        ? `could not ${what} ${a.name}: ${outcome.error.message}`
        : what === 'extend' && outcome.window
          ? `extended ${a.name} until ${formatClock(windowEnd(outcome.window), false)}`
          : `${what === 'cancel' ? 'cancelled' : 'ended'} ${a.name}`;
      set({
        windowAction: { state: 'done', ok: outcome.ok, message },
        windowsVersion: get().windowsVersion + 1,
        maintenanceVersion: get().maintenanceVersion + 1,
      });
    },
  };
};

type Set = Parameters<StateCreator<ConsoleState, [], [], WindowsSlice>>[0];

/** `+` on a window: asks by how long, then sends the new end. */
function extendActions(set: Set, get: () => ConsoleState, selected: () => MaintenanceWindow | undefined) {
  return {
    askExtendWindow() {
      const w = selected();
      if (!w || get().windowAction.state === 'sending') return;
      if (w.source === 'config')
        return set({ windowAction: { state: 'done', ok: false, message: configOnly(w) } });
      set({
        windowAction: {
          state: 'extend',
          id: w.id,
          name: w.name,
          endsAt: windowEnd(w),
          text: '',
          error: null,
        },
      });
    },
    extendType(text) {
      const a = get().windowAction;
      if (a.state === 'extend') set({ windowAction: { ...a, text: a.text + text } });
    },
    extendErase() {
      const a = get().windowAction;
      if (a.state === 'extend') set({ windowAction: { ...a, text: a.text.slice(0, -1) } });
    },
    extendApply() {
      const a = get().windowAction;
      if (a.state !== 'extend') return;
      const end = Date.parse(a.endsAt);
      const by = parseUntil(a.text, end);
      if ('error' in by || by.duration === undefined) {
        const error = 'error' in by && a.text.trim() === '' ? by.error : 'extend by a duration: 15m, 1h, 4h';
        return set({ windowAction: { ...a, error } });
      }
      const patch = { endsAt: new Date(by.endsAt).toISOString() };
      set({ windowAction: { state: 'sending', id: a.id, name: a.name, change: { patch } } });
    },
    extendCancel() {
      if (get().windowAction.state === 'extend') set({ windowAction: { state: 'idle' } });
    },
  } satisfies Partial<WindowsSlice>;
}

const configOnly = (w: MaintenanceWindow) =>
  `${w.name} is declared in the service config: change it there (the API cannot)`;

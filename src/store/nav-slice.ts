// Navigation: a stack of views (each keeps its params), the overlay, the
// terminal's size and the clock every age on screen is measured against.
import type { StateCreator } from 'zustand/vanilla';
import type { ConsoleState } from './create-store.js';
import type { Overlay, Scope, View, ViewName } from './types.js';

export interface NavSlice {
  stack: View[];
  overlay: Overlay;
  promptText: string;
  promptError: string | null;
  /** Limits the board to a dashboard's checks and check groups, or null for all. */
  scope: Scope | null;
  cols: number;
  rows: number;
  now: number;
  pushView(name: ViewName, params?: Record<string, string>): void;
  popView(): void;
  replaceView(name: ViewName, params?: Record<string, string>): void;
  setOverlay(overlay: Overlay): void;
  setPrompt(text: string, error?: string | null): void;
  setScope(scope: Scope | null): void;
  setSize(cols: number, rows: number): void;
  tick(now: number): void;
}

export const createNavSlice =
  (initial: ViewName): StateCreator<ConsoleState, [], [], NavSlice> =>
  (set, get) => ({
    stack: [{ name: initial, params: {} }],
    overlay: null,
    promptText: '',
    promptError: null,
    scope: null,
    cols: 80,
    rows: 24,
    now: Date.now(),
    pushView: (name, params = {}) =>
      set({ stack: [...get().stack, { name, params }], overlay: null, ...leftBehind(get(), false) }),
    popView() {
      const stack = get().stack;
      if (stack.length > 1) set({ stack: stack.slice(0, -1), ...leftBehind(get(), true) });
    },
    replaceView: (name, params = {}) =>
      set({ stack: [...get().stack.slice(0, -1), { name, params }], ...leftBehind(get(), true) }),
    setOverlay: (overlay) =>
      set({ overlay, promptText: overlay === 'prompt' ? '' : get().promptText, promptError: null }),
    setPrompt: (promptText, promptError = null) => set({ promptText, promptError }),
    setScope: (scope) => set({ scope }),
    setSize: (cols, rows) => (cols === get().cols && rows === get().rows ? undefined : set({ cols, rows })),
    tick: (now) => set({ now }),
  });

/**
 * What the view on top leaves behind as another view covers it or it goes:
 * revealed secrets end either way; a dashboard's scope ends only when the
 * dashboard itself goes (a check opened from it returns to it).
 */
function leftBehind(s: ConsoleState, gone: boolean): Partial<ConsoleState> {
  const top = s.stack[s.stack.length - 1]?.name;
  if (top === 'channels') return { revealedChannelId: null };
  if (top === 'dashboard' && gone) return { scope: null, dashboard: null, charts: {} };
  return {};
}

// Navigation: a stack of views (each owns its state: see View), which input has
// the keys (focus), the terminal's size and the clock every age on screen is
// measured against.
import type { StateCreator } from 'zustand/vanilla';
import type { ConsoleState, NavSlice } from './state.js';
import { expiredMessages, messagesLeft } from './check-actions-slice.js';
import type { View } from './types.js';

export type { NavSlice } from './state.js';

export const createNavSlice =
  (initial: View): StateCreator<ConsoleState, [], [], NavSlice> =>
  (set, get) => ({
    stack: [initial],
    focus: 'list',
    promptText: '',
    promptError: null,
    helpScroll: 0,
    cols: 80,
    rows: 24,
    now: Date.now(),
    pushView: (view) => set({ stack: [...get().stack, view], focus: 'list', ...leftBehind(get(), false) }),
    popView() {
      const stack = get().stack;
      if (stack.length > 1) set({ stack: stack.slice(0, -1), focus: 'list', ...leftBehind(get(), true) });
    },
    replaceView: (view) =>
      set({ stack: [...get().stack.slice(0, -1), view], focus: 'list', ...leftBehind(get(), true) }),
    updateView(name, patch) {
      const stack = get().stack;
      const at = stack.findLastIndex((v) => v.name === name);
      if (at < 0) return;
      set({ stack: stack.map((v, i) => (i === at ? ({ ...v, ...patch } as View) : v)) });
    },
    setFocus: (focus) => set(focus === 'help' ? { focus, helpScroll: 0 } : { focus }),
    scrollHelp: (delta, max) => set({ helpScroll: Math.max(0, Math.min(max, get().helpScroll + delta)) }),
    openPrompt: () => set({ focus: 'prompt', promptText: '', promptError: null }),
    setPrompt: (promptText, promptError = null) => set({ promptText, promptError }),
    setSize: (cols, rows) => (cols === get().cols && rows === get().rows ? undefined : set({ cols, rows })),
    tick: (now) => set({ now, ...expiredMessages(get(), now) }),
  });

/**
 * What the view on top leaves behind as another view covers it or it goes:
 * an action's outcome and a refusal said on it, and revealed secrets, end either way; a dashboard's charts end only when the
 * dashboard itself goes (a check opened from it returns to it). Everything
 * else a view owns goes with it.
 */
function leftBehind(s: ConsoleState, gone: boolean): Partial<ConsoleState> {
  const top = s.stack[s.stack.length - 1]?.name;
  const messages = messagesLeft(s);
  if (top === 'channels') return { ...messages, revealedChannelId: null, createdSecret: null };
  if (top === 'dashboard' && gone) return { ...messages, charts: {} };
  return messages;
}

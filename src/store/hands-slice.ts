// What the console's hands show (docs/console.md, "Runbooks, links, copy and your
// own commands"): a line after a copy or an open, a menu of things to copy or
// links to open, a text too long to copy shown whole, a question before one of
// the engineer's own commands, and the wait for a key once it ran. The copying,
// opening and running themselves are the wiring's (ConsoleActions): this is state.
import type { StateCreator } from 'zustand/vanilla';
import type { UserCommand } from '../domain/user-commands.js';
import type { ConsoleState, HandsPanel, HandsSlice } from './state.js';

export type { HandsItem, HandsPanel, HandsSlice } from './state.js';

export const createHandsSlice: StateCreator<ConsoleState, [], [], HandsSlice> = (set, get) => ({
  handsNote: null,
  handsPanel: null,
  suspended: null,
  userCommands: [],
  setHandsNote: (handsNote) => set({ handsNote }),
  openHandsPanel: (handsPanel: HandsPanel) => set({ handsPanel }),
  closeHandsPanel: () => set({ handsPanel: null }),
  moveHandsPanel(delta, end = Number.MAX_SAFE_INTEGER) {
    const panel = get().handsPanel;
    if (!panel) return;
    const last = panel.kind === 'menu' ? panel.items.length - 1 : end;
    const at = Math.max(0, Math.min(last, panel.at + delta));
    set({ handsPanel: { ...panel, at } as HandsPanel });
  },
  setSuspended: (suspended) => set({ suspended }),
  setUserCommands: (userCommands: UserCommand[]) => set({ userCommands }),
});

// What every handler is given, in a module of its own so the handler files and
// the table that gathers them (index.ts) import it without importing each other.
import type { ConsoleState, ConsoleStore } from '../../store/state.js';
import type { CommandId } from '../keymap.js';

export interface ConsoleActions {
  quit(): void;
  pollNow(): void;
  togglePause(): void;
  /** Puts text on the clipboard through the terminal (OSC 52); absent: no terminal to copy through. */
  copy?(text: string): void;
  /** Opens an http(s) URL in a browser, detached; false where there is no display to open one on. */
  open?(url: string): boolean;
  /** Runs argv in the terminal, the console's screen given up until `resumeScreen` (commands/hands.ts). */
  runInTerminal?(argv: string[], env: Record<string, string>, name: string): string;
  /** Takes the screen back after `runInTerminal`. */
  resumeScreen?(): void;
}

export interface CommandContext {
  store: ConsoleStore;
  actions: ConsoleActions;
  /** Rows of the visible list, for page moves. */
  pageSize: number;
}

export type Handler = (ctx: CommandContext) => void;
export type Handlers = Partial<Record<CommandId, Handler>>;

export const state = (ctx: CommandContext): ConsoleState => ctx.store.getState();

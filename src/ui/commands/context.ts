// What every handler is given, in a module of its own so the handler files and
// the table that gathers them (index.ts) import it without importing each other.
import type { ConsoleState, ConsoleStore } from '../../store/state.js';
import type { CommandId } from '../keymap.js';

export interface ConsoleActions {
  quit(): void;
  pollNow(): void;
  togglePause(): void;
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

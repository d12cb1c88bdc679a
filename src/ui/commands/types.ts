// What a command's handler is given and is: the store, the console's own actions (quit,
// poll now, pause) handed in by the wiring layer, and the page size of the visible list.
import type { ConsoleStore } from '../../store/state.js';
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

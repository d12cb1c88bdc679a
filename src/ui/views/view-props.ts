import type { ConsoleStore } from '../../store/state.js';
import type { View, ViewName, ViewOf } from '../../store/types.js';

/** What a view component gets: the store, its own entry of the stack, its height. */
export interface ViewProps<N extends ViewName = ViewName> {
  store: ConsoleStore;
  view: N extends ViewName ? ViewOf<N> : View;
  height: number;
}

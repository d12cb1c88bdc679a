import type { ConsoleStore } from '../../store/create-store.js';
import type { View } from '../../store/types.js';

export interface ViewProps {
  store: ConsoleStore;
  view: View;
  height: number;
}

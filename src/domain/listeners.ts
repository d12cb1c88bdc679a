// Parts of the service tell each other what moved through listeners registered
// before the part that speaks starts, never through a holder assigned later: a holder
// still empty at start once let a maintenance window's end be claimed with no one to
// page for it (docs/architecture.md, "Wiring").

export interface Listeners<A extends unknown[]> {
  on(listener: (...args: A) => void | Promise<void>): void;
  /** Calls every listener in the order they came, each awaited before the next. */
  emit(...args: A): Promise<void>;
  /** How many listen: a source whose events must not fall on the floor checks it. */
  count(): number;
}

export function createListeners<A extends unknown[]>(): Listeners<A> {
  const all: Array<(...args: A) => void | Promise<void>> = [];
  return {
    on: (listener) => void all.push(listener),
    async emit(...args) {
      for (const listener of all) await listener(...args);
    },
    count: () => all.length,
  };
}

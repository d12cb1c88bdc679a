// Items by the time each is next due, earliest first: a binary heap whose items know
// their place in it, so moving one (a status derived again, its `until` later) costs
// a few steps and never leaves a stale copy behind. The status warmer takes what is
// due each turn instead of walking every check to find it (warm-pass.ts).

export interface Queued {
  /** When it is next due; meaningful while queued. */
  due: number;
  /** Its index in the heap; -1 when not queued. */
  slot: number;
}

export interface DueQueue<T extends Queued> {
  /** Queues `item` for `due`, or moves it there if queued already. */
  put(item: T, due: number): void;
  /** The earliest item due at `now` or before, taken out of the queue; undefined when none is. */
  take(now: number): T | undefined;
  /** Empties the queue. */
  clear(): void;
  size(): number;
}

export function createDueQueue<T extends Queued>(): DueQueue<T> {
  const heap: T[] = [];

  function place(item: T, i: number) {
    heap[i] = item;
    item.slot = i;
  }

  function up(i: number) {
    const item = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.due <= item.due) break;
      place(heap[parent]!, i);
      i = parent;
    }
    place(item, i);
  }

  function down(i: number) {
    const item = heap[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right]!.due < heap[left]!.due ? right : left;
      if (heap[child]!.due >= item.due) break;
      place(heap[child]!, i);
      i = child;
    }
    place(item, i);
  }

  return {
    put(item, due) {
      item.due = due;
      if (item.slot < 0) {
        heap.push(item);
        up(heap.length - 1);
        return;
      }
      up(item.slot);
      down(item.slot);
    },
    take(now) {
      const top = heap[0];
      if (!top || top.due > now) return undefined;
      const last = heap.pop()!;
      if (last !== top) {
        place(last, 0);
        down(0);
      }
      top.slot = -1;
      return top;
    },
    clear() {
      for (const item of heap) item.slot = -1;
      heap.length = 0;
    },
    size: () => heap.length,
  };
}

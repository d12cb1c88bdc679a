// Group commit: calls made while a batch is out wait and go together in the
// next one, so many runs cost one round trip and one transaction. Nothing waits
// for a timer: calls of one tick leave together at its end, at once when idle.
// With `endOfTurn`, calls wait for the end of the event loop's turn (setImmediate)
// rather than of the tick: the callbacks of one turn (a tick's slots, a worker's
// results) each end their own tick, and go together without a timer's wake-up.

/**
 * Wraps `run`, which answers a batch of items in order, as a call per item. At
 * most `inFlight` batches are out at a time, each of at most `max` items. When a
 * batch of several fails, each of its items is tried again alone, so one bad
 * item fails only its own call.
 */
export function batched<I, O>(
  run: (items: I[]) => Promise<O[]>,
  {
    max = 100,
    inFlight = 2,
    endOfTurn = false,
  }: { max?: number; inFlight?: number; endOfTurn?: boolean } = {},
): (item: I) => Promise<O> {
  interface Waiting {
    item: I;
    resolve(out: O): void;
    reject(error: unknown): void;
  }
  const queue: Waiting[] = [];
  let out = 0;
  let soon = false;

  async function send(batch: Waiting[]) {
    try {
      const answers = await run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(answers[i]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else
        for (const w of batch)
          run([w.item]).then(
            ([answer]) => w.resolve(answer!),
            (alone: unknown) => w.reject(alone),
          );
    }
  }

  function next() {
    soon = false;
    while (out < inFlight && queue.length > 0) {
      out++;
      void send(queue.splice(0, max)).finally(() => {
        out--;
        // A gather already under way sends the calls made since, at its turn's end.
        if (!soon) next();
      });
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!soon) {
        soon = true;
        if (endOfTurn) setImmediate(next);
        else queueMicrotask(next);
      }
    });
}

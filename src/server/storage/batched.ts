// Group commit: calls made while a batch is out wait and go together in the
// next one, so many runs cost one round trip and one transaction. Nothing waits
// for a timer: calls of one tick leave together at its end, at once when idle.
// With `gatherMs`, a call waits that long for others to go with it: SQLite
// answers at once, so no batch is ever out to gather behind, and calls spread
// evenly over time (10,000 checks' runs) rarely share a tick or a turn.

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
    gatherMs,
  }: { max?: number; inFlight?: number; gatherMs?: number | undefined } = {},
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
        // A gather already under way sends the calls made since, when its wait is over.
        if (!soon) next();
      });
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!soon) {
        soon = true;
        if (gatherMs === undefined) queueMicrotask(next);
        else setTimeout(next, gatherMs);
      }
    });
}

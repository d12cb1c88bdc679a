// One job at a time per key, in call order: what the service relied on while
// storage answered at once (a result's reads, write and status change ran to
// completion before the next result of the same check began).
export type Serial = <T>(key: string, job: () => Promise<T>) => Promise<T>;

export function createSerial(): Serial {
  const tails = new Map<string, Promise<void>>();
  return <T>(key: string, job: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(job);
    // The next job waits for this one however it ends; its caller sees the error.
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

/**
 * At most `n` jobs at once, the rest waiting in call order. The status engine
 * computes statuses through one: a cold list of 10,000 checks (ten queries each)
 * must not queue 100,000 queries ahead of every other use of a PostgreSQL pool.
 */
export function createLimit(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    active--;
    waiting.shift()?.();
  };
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await job();
    } finally {
      next();
    }
  };
}

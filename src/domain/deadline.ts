// A signal that aborts with another, or after a time: a run's clock, a delivery
// attempt's, an assertion's grace.
//
// Not AbortSignal.any([outer, AbortSignal.timeout(ms)]): on Node 20 the combined signal
// holds its sources weakly, and a timeout signal no listener of its own holds is taken by
// the next collection, its timer with it; the combination then never times out (a
// journey's 2 s assertion grace ran to the run's 15 s clock; on Node 20.20, a combination
// with a 200 ms timeout and a listener of its own, a gc() right after, never aborted). Nor AbortSignal.timeout alone for a run: its timer, and the signals hanging
// on it, lived the whole timeout after each run, so each run worker promoted them to its
// old generation for full collections to clear (BENCHMARKS.md). Here the timer holds the
// controller. Whichever comes first, the timer or `outer`, takes the other away, so a
// long-lived signal (the service's stop) does not gather a listener a call; `done()` does
// so at once, when the work ends sooner.

export interface Deadline {
  signal: AbortSignal;
  /** Clears the timer and the listener on the outer signal: call it once the work is over. */
  done(): void;
}

/** Aborted with `outer`'s reason, or after `timeoutMs` with a TimeoutError, whichever comes first. */
export function deadline(outer: AbortSignal | undefined, timeoutMs: number): Deadline {
  const controller = new AbortController();
  const done = () => {
    clearTimeout(timer);
    outer?.removeEventListener('abort', stop);
  };
  const stop = () => {
    done();
    controller.abort(outer?.reason);
  };
  const timer = setTimeout(() => {
    done();
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  if (outer?.aborted) stop();
  else outer?.addEventListener('abort', stop, { once: true });
  return { signal: controller.signal, done };
}

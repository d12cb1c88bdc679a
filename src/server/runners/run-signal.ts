// A run's own abort signal, for the HTTP and TCP runners alike.

/**
 * The run's signal: aborted with the service's (stopping) or after `timeoutMs` (a
 * TimeoutError). Not AbortSignal.timeout: its timer, and the signals hanging on it,
 * lived the whole timeout (30 s by default) after each run, so each run worker
 * promoted them to its old generation for full collections (pauses that a
 * measurement in flight waits behind) to clear (BENCHMARKS.md).
 */
export function runSignal(outer: AbortSignal, timeoutMs: number): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort(outer.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    timeoutMs,
  );
  if (outer.aborted) stop();
  else outer.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      outer.removeEventListener('abort', stop);
    },
  };
}

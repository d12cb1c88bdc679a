// Waits for a daemon a test started (blackbox_exporter, Alertmanager) to answer its
// health URL, or fails with what it logged.
export async function untilReady(
  url: string,
  name: string,
  log: () => string,
  timeoutMs: number,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} did not start:\n${log()}`);
}

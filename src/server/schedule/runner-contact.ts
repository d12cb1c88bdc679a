// When a remote location's runner counts as connected: a run asked for there waits for
// it, and /metrics counts it. Apart from the runner hub so that the metrics thread can
// read it without loading the hub.

/** A remote location's runner in touch this lately is connected. */
export const RUNNER_CONNECTED_MS = 60_000;

// How numbers, durations and ages read on screen. "—" means "no data".

export const NO_DATA = '—';

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return NO_DATA;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

/** "5s", "4m", "3h", "2d": how long ago, compact for columns. */
export function formatAge(from: string | number | null | undefined, now: number): string {
  if (from === null || from === undefined) return NO_DATA;
  const at = typeof from === 'number' ? from : Date.parse(from);
  if (Number.isNaN(at)) return NO_DATA;
  return formatSpan(Math.max(0, now - at));
}

export function formatSpan(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400)
    return `${Math.floor(s / 3600)}h${s % 3600 >= 60 && s < 36_000 ? `${Math.floor((s % 3600) / 60)}m` : ''}`;
  return `${Math.floor(s / 86_400)}d`;
}

// Ages that stay on screen while the clock runs move in steps: under a minute by ten
// seconds, then by the minute. Every second's "3s", "4s"… redrew every row of a busy
// board and sent it down the wire; a step is what a glance reads anyway.
export const AGE_STEP_MS = 10_000;

/** "<10s", "20s", "4m", "3h", "2d": how long ago, in steps that change at most every 10 s. */
export function formatAgeStep(from: string | number | null | undefined, now: number): string {
  if (from === null || from === undefined) return NO_DATA;
  const at = typeof from === 'number' ? from : Date.parse(from);
  if (Number.isNaN(at)) return NO_DATA;
  const ms = Math.max(0, now - at);
  if (ms < AGE_STEP_MS) return `<${AGE_STEP_MS / 1000}s`;
  return ms < 60_000 ? `${Math.floor(ms / AGE_STEP_MS) * (AGE_STEP_MS / 1000)}s` : formatSpan(ms);
}

/** The clock rounded down to an age step: what views showing stepped ages subscribe to. */
export const ageClock = (now: number): number => Math.floor(now / AGE_STEP_MS) * AGE_STEP_MS;

/**
 * A check's response time: none for a heartbeat check, whose "runs" are pings a job
 * sends, with no request and so no response time (the service may still say 0 ms).
 */
export function formatResponseTime(checkType: string, ms: number | null | undefined): string {
  return checkType === 'heartbeat' ? NO_DATA : formatMs(ms);
}

export function formatPercent(p: number | null | undefined, digits = 2): string {
  if (p === null || p === undefined || Number.isNaN(p)) return NO_DATA;
  return `${p.toFixed(p === 100 ? 0 : digits)}%`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** 14:03:07 in UTC, for clocks and timestamps in lists. */
export function formatClock(at: string | number, utc = true): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return utc
    ? `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
    : `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

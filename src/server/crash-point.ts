// Named places where a test may kill the service (docs/alerts.md, "A kill at any moment"):
// with CHECKWALL_TEST_CRASH_AT set to one of them, the process SIGKILLs itself the
// first time it gets there, as a power cut would. Unset (always, outside tests): nothing.
export const CRASH_POINTS = [
  'failure stored',
  'notification written',
  'delivery in flight',
  'window ending',
  'recovery',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

export function crashPoint(point: CrashPoint): void {
  if (process.env.CHECKWALL_TEST_CRASH_AT !== point) return;
  process.stderr.write(`checkwall: CHECKWALL_TEST_CRASH_AT=${point}: killed here\n`);
  process.kill(process.pid, 'SIGKILL');
}

// What the console says of a heartbeat's next ping (docs/console.md): a job under way,
// a first ping awaited, or the next one due, from the status's documented extensions
// (docs/service.md, "Heartbeats"). Times in UTC, as the console's other clocks.
import { formatClock } from './format.js';

export interface HeartbeatTimes {
  checkType: string;
  runningSince?: string | null | undefined;
  awaitingFirstPing?: { dueBy: string } | null | undefined;
  nextPingDue?: string | null | undefined;
}

/** The words of each state, given how a time reads. */
const LONG = {
  running: (t: string) => `running since ${t}`,
  first: (t: string) => `waiting for the first ping, due by ${t}`,
  next: (t: string) => `next ping due ${t}`,
};
const SHORT = {
  running: (t: string) => `running since ${t}`,
  first: (t: string) => `first by ${t}`,
  next: (t: string) => `due ${t}`,
};

function words(s: HeartbeatTimes, say: typeof LONG, time: (at: string) => string): string | null {
  if (s.checkType !== 'heartbeat') return null;
  if (s.runningSince) return say.running(time(s.runningSince));
  if (s.awaitingFirstPing) return say.first(time(s.awaitingFirstPing.dueBy));
  if (s.nextPingDue) return say.next(time(s.nextPingDue));
  return null;
}

/** "running since 03:00:02", "waiting for the first ping, due by 03:10:00", "next ping due 03:10:00"; null otherwise. */
export const heartbeatWhen = (s: HeartbeatTimes): string | null => words(s, LONG, (at) => formatClock(at));

/** The board's cell: "due 03:10", "running since 03:00", "first by 03:10" (UTC, to the minute); null otherwise. */
export const heartbeatCell = (s: HeartbeatTimes): string | null =>
  words(s, SHORT, (at) => formatClock(at).slice(0, 5));

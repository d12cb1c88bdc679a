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

/** "running since 03:00:02", "waiting for the first ping, due by 03:10:00", "next ping due 03:10:00"; null otherwise. */
export function heartbeatWhen(s: HeartbeatTimes): string | null {
  if (s.checkType !== 'heartbeat') return null;
  if (s.runningSince) return `running since ${formatClock(s.runningSince)}`;
  if (s.awaitingFirstPing)
    return `waiting for the first ping, due by ${formatClock(s.awaitingFirstPing.dueBy)}`;
  if (s.nextPingDue) return `next ping due ${formatClock(s.nextPingDue)}`;
  return null;
}

/** The board's cell: "due 03:10", "running since 03:00", "first by 03:10" (UTC, to the minute); null otherwise. */
export function heartbeatCell(s: HeartbeatTimes): string | null {
  if (s.checkType !== 'heartbeat') return null;
  const hm = (at: string) => formatClock(at).slice(0, 5);
  if (s.runningSince) return `running since ${hm(s.runningSince)}`;
  if (s.awaitingFirstPing) return `first by ${hm(s.awaitingFirstPing.dueBy)}`;
  if (s.nextPingDue) return `due ${hm(s.nextPingDue)}`;
  return null;
}

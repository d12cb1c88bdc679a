// A heartbeat's cron schedule in a time zone (docs/service.md, "Heartbeats"): which
// wall-clock times match is croner's (a maintained parser, never our own), which
// instants those times are is luxon's. Daylight saving as cronie does it:
//   - a time skipped by spring-forward (02:30 in Europe/Berlin on the last Sunday of
//     March) is due at the first minute after the jump (03:00);
//   - a time repeated by fall-back (02:30 on the last Sunday of October) is due once,
//     at its first occurrence (summer time).
// croner alone differs on both (it moves a skipped 02:30 to 03:30 and keeps the second
// 02:30), so it matches wall times on a zone without changes (UTC) and luxon places
// each in the real zone: this is the whole of the adjustment (docs/decisions.md).
import { Cron } from 'croner';
import { DateTime } from 'luxon';
import { isTimeZone } from './maintenance.js';

const MINUTE_MS = 60_000;
// A gap longer than this (no zone has one) means something else is wrong: give up.
const MAX_GAP_MINUTES = 24 * 60;
// How many due times each sample of longestGapMs walks, and how far (a weekly job, a leap day).
const GAP_SAMPLE_RUNS = 200;
const GAP_SAMPLE_MS = 400 * 86_400_000;
const YEAR_DAYS = 366;

export interface CronSchedule {
  expression: string;
  timezone: string;
}

/** Why an expression or zone is refused, in one sentence; undefined when both are good. */
export function cronProblem(expression: string, timezone: string): string | undefined {
  if (!isTimeZone(timezone)) return `"${timezone}" is not an IANA time zone (e.g. Europe/Berlin)`;
  const fields = expression.trim().split(/\s+/);
  if (!expression.trim().startsWith('@') && fields.length !== 5)
    return `"${expression}" must have 5 fields (minute hour day-of-month month day-of-week)`;
  try {
    if (wallPattern(expression).nextRun(new Date(0)) === null) return `"${expression}" is never due`;
  } catch (error) {
    return `"${expression}" is not a cron expression: ${(error as Error).message}`;
  }
  return undefined;
}

const patterns = new Map<string, Cron>();
/** The expression matched against wall-clock times written as UTC instants. */
function wallPattern(expression: string): Cron {
  let cron = patterns.get(expression);
  if (!cron) {
    cron = new Cron(expression, { utcOffset: 0, paused: true, legacyMode: true });
    patterns.set(expression, cron);
  }
  return cron;
}

/** The wall-clock time of `at` in the zone, written as a UTC instant. */
function wallOf(at: number, timezone: string): number {
  return at + DateTime.fromMillis(at, { zone: timezone }).offset * MINUTE_MS;
}

/** The instant a wall time is due: its first occurrence, or the first minute after a jump over it. */
function instantOf(wall: number, timezone: string): number {
  for (let k = 0; k <= MAX_GAP_MINUTES; k++) {
    const w = DateTime.fromMillis(wall + k * MINUTE_MS, { zone: 'utc' });
    const fields = {
      year: w.year,
      month: w.month,
      day: w.day,
      hour: w.hour,
      minute: w.minute,
      second: w.second,
    };
    const local = DateTime.fromObject(fields, { zone: timezone });
    // A skipped time comes back moved (02:30 as 03:30): try the next minute.
    if (local.hour !== w.hour || local.minute !== w.minute) continue;
    const first = local.getPossibleOffsets().reduce((a, b) => (b.toMillis() < a.toMillis() ? b : a), local);
    return first.toMillis();
  }
  throw new Error(`no time exists in ${timezone} near ${new Date(wall).toISOString()}`);
}

/** The first due time strictly after `after` (epoch ms); null when none comes. */
export function nextDue(schedule: CronSchedule, after: number): number | null {
  const cron = wallPattern(schedule.expression);
  let wall = wallOf(after, schedule.timezone);
  // A repeated hour's second pass, and a jump's minutes folded onto one instant, are passed over.
  for (let i = 0; i < 2_000; i++) {
    const next = cron.nextRun(new Date(wall));
    if (!next) return null;
    wall = next.getTime();
    const at = instantOf(wall, schedule.timezone);
    if (at > after) return at;
  }
  return null;
}

/** The latest due time at or before `at`, looked for within `withinMs`; null when none. */
export function previousDue(schedule: CronSchedule, at: number, withinMs: number): number | null {
  let found: number | null = null;
  let t = nextDue(schedule, at - withinMs - 1);
  for (let i = 0; t !== null && t <= at && i < 100_000; i++) {
    found = t;
    t = nextDue(schedule, t);
  }
  return found;
}

const gaps = new Map<string, number>();
/**
 * The longest time between two due times (a status is stale after 3 of them): walked
 * from `from`, and from the start of each day of the coming year on which the zone's
 * offset changes (and the day before), where a repeated hour makes the longest gap of an
 * hourly job; kept per schedule.
 */
export function longestGapMs(schedule: CronSchedule, from: number): number {
  const key = `${schedule.timezone}\u0000${schedule.expression}`;
  const kept = gaps.get(key);
  if (kept !== undefined) return kept;
  let longest = 0;
  for (const start of [from, ...changeDays(schedule.timezone, from)]) {
    let prev = nextDue(schedule, start);
    // One gap at least, however far: a leap day's job (0 3 29 2 *) is first due years ahead.
    for (let i = 0; prev !== null && i < GAP_SAMPLE_RUNS && (i === 0 || prev - start < GAP_SAMPLE_MS); i++) {
      const next = nextDue(schedule, prev);
      if (next === null) break;
      longest = Math.max(longest, next - prev);
      prev = next;
    }
  }
  gaps.set(key, longest);
  return longest;
}

/** The local midnights (epoch ms) of the days in the year from `from` whose offset changes, and of the days before. */
function changeDays(timezone: string, from: number): number[] {
  const days: number[] = [];
  let day = DateTime.fromMillis(from, { zone: timezone }).startOf('day');
  for (let i = 0; i < YEAR_DAYS; i++) {
    const next = day.plus({ days: 1 });
    if (next.offset !== day.offset) days.push(day.minus({ days: 1 }).toMillis(), day.toMillis());
    day = next;
  }
  return days;
}

/** How the status names the schedule: `cron <expr> <tz>`. */
export const cronLabel = (schedule: CronSchedule) => `cron ${schedule.expression} ${schedule.timezone}`;

// The occurrences of a maintenance window (docs/maintenance.md): pure
// maths over epoch ms, with luxon for every calendar step (days, time zones,
// daylight saving), never our own. A recurring window's occurrence starts at the
// first one's local time of day in its zone on each chosen day, and lasts as long
// as the first one (in real time): a window at 02:00 stays at 02:00 local across a
// change; on a spring-forward day, where 02:xx does not exist, luxon moves it
// forward by the gap (03:xx), and on a fall-back day, where 02:xx is shown twice,
// the first one (summer time).
import { DateTime, IANAZone } from 'luxon';
import type { MaintenanceRepeat, MaintenanceState, Weekday } from '../api/schemas/maintenance.js';

export interface WindowTimes {
  startsAt: number;
  endsAt: number;
  repeat: MaintenanceRepeat | null;
  endedEarlyAt: number | null;
  /** Occurrences whose end a person changed: start (ms, as a string) → end. */
  occurrenceEnds: Record<string, number>;
}

export interface Occurrence {
  startsAt: number;
  endsAt: number;
}

const DAY_MS = 86_400_000;
// How far ahead a weekly window's next occurrence is looked for (more than a week, for an `until`).
const LOOK_AHEAD_DAYS = 8;
const WEEKDAY_NUMBER: Record<Weekday, number> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 };

export const isTimeZone = (zone: string): boolean => IANAZone.isValidZone(zone);

/** The window's occurrences that end after `from` and start before `to`, in start order. */
export function occurrencesBetween(w: WindowTimes, from: number, to: number): Occurrence[] {
  const out: Occurrence[] = [];
  for (const o of occurrencesFrom(w, from)) {
    if (o.startsAt >= to) break;
    if (o.endsAt > from) out.push(o);
  }
  return out;
}

/** The occurrence active at `now`, else the next one; its state; null once it has ended for good. */
export function occurrenceAt(
  w: WindowTimes,
  now: number,
): { state: MaintenanceState; occurrence: Occurrence | null } {
  let next: Occurrence | null = null;
  let days = 0;
  for (const o of occurrencesFrom(w, now)) {
    if (o.startsAt <= now && o.endsAt > now) return { state: 'active', occurrence: o };
    if (o.startsAt > now) {
      next = o;
      break;
    }
    if (++days > LOOK_AHEAD_DAYS + 3) break;
  }
  return next ? { state: 'scheduled', occurrence: next } : { state: 'ended', occurrence: null };
}

/**
 * Occurrences in start order, from those that may still be active at `from` (an
 * occurrence lasts at most a day, an extended one at most another) on.
 */
function* occurrencesFrom(w: WindowTimes, from: number): Generator<Occurrence> {
  const cut = (o: Occurrence): Occurrence | null => {
    if (w.endedEarlyAt === null) return o;
    if (o.startsAt >= w.endedEarlyAt) return null;
    return { startsAt: o.startsAt, endsAt: Math.min(o.endsAt, w.endedEarlyAt) };
  };
  if (!w.repeat) {
    const once = cut({ startsAt: w.startsAt, endsAt: w.endsAt });
    if (once) yield once;
    return;
  }
  const { timezone, frequency, daysOfWeek, until } = w.repeat;
  const first = DateTime.fromMillis(w.startsAt, { zone: timezone });
  const length = w.endsAt - w.startsAt;
  const weekdays = new Set(
    frequency === 'daily' ? [1, 2, 3, 4, 5, 6, 7] : (daysOfWeek ?? []).map((d) => WEEKDAY_NUMBER[d]),
  );
  if (weekdays.size === 0) weekdays.add(first.weekday);
  const lastDay = until ? DateTime.fromISO(until, { zone: timezone }).startOf('day') : null;
  const back = DateTime.fromMillis(Math.max(w.startsAt, from - 2 * DAY_MS), { zone: timezone }).startOf(
    'day',
  );
  let day = back;
  // Unbounded only in appearance: the caller stops once it has what it looks for.
  for (let i = 0; i < 100_000; i++, day = day.plus({ days: 1 })) {
    if (lastDay && day > lastDay) return;
    if (!weekdays.has(day.weekday)) continue;
    const local = DateTime.fromObject(
      {
        year: day.year,
        month: day.month,
        day: day.day,
        hour: first.hour,
        minute: first.minute,
        second: first.second,
        millisecond: first.millisecond,
      },
      { zone: timezone },
    );
    // An hour shown twice (fall-back) is taken the first time: luxon alone would pick by today's offset.
    const start = Math.min(...local.getPossibleOffsets().map((d) => d.toMillis()));
    if (start < w.startsAt) continue;
    const o = cut({ startsAt: start, endsAt: w.occurrenceEnds[String(start)] ?? start + length });
    if (!o) return;
    yield o;
  }
}

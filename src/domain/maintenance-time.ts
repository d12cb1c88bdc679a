// How long a maintenance window lasts, as a person types it at the console or a
// script on the command line: a duration (`15m`, `1h`, `4h`), a local time of
// day (`14:30`: the next one to come) or an ISO time. Pure: `now` is given.
import type { MaintenanceScope } from '../api/schemas/maintenance.js';

/** The choices the console offers first. */
export const DURATION_PRESETS = ['15m', '1h', '4h'] as const;

/** A one-off window lasts at most this long (the service's rule: a silence must end). */
export const MAX_WINDOW_MS = 7 * 24 * 3_600_000;

/** The same as the wire's DurationSchema: a whole number of m, h or d. */
const DURATION = /^([1-9][0-9]{0,4})(m|h|d)$/;
const TIME_OF_DAY = /^([01]?[0-9]|2[0-3]):([0-5][0-9])$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

export type Until = { duration: string; endsAt: number } | { endsAt: number; duration?: undefined };

/** The end a text names, or a sentence saying what is wrong with it. */
export function parseUntil(input: string, now: number): Until | { error: string } {
  const text = input.trim();
  if (text === '')
    return { error: `say how long: ${DURATION_PRESETS.join(', ')}, a time (14:30) or an ISO time` };
  const d = DURATION.exec(text);
  if (d) {
    const endsAt = now + durationOf(d);
    return endsAt - now > MAX_WINDOW_MS ? { error: tooLong(text) } : { duration: text, endsAt };
  }
  const t = TIME_OF_DAY.exec(text);
  if (t) return { endsAt: nextLocal(now, Number(t[1]), Number(t[2])) };
  if (ISO_TIME.test(text)) {
    const endsAt = Date.parse(text);
    if (Number.isNaN(endsAt)) return { error: `"${text}" is not a time` };
    if (endsAt <= now) return { error: `${text} has passed: a window ends in the future` };
    if (endsAt - now > MAX_WINDOW_MS) return { error: tooLong(text) };
    return { endsAt };
  }
  return {
    error: `"${text}" is neither a duration (15m, 1h, 4h), a time (14:30) nor an ISO time (${isoExample(now)})`,
  };
}

/** An ISO time to show as an example: one that would be taken now (the next half hour, two hours on). */
export function isoExample(now: number): string {
  const half = 30 * 60_000;
  return new Date(Math.ceil((now + 2 * 3_600_000) / half) * half).toISOString().slice(0, 16) + 'Z';
}

const tooLong = (text: string) => `${text} is more than 7 days away: a window must end within 7 days`;

function durationOf(m: RegExpExecArray): number {
  const unit = m[2] === 'm' ? 60_000 : m[2] === 'h' ? 3_600_000 : 86_400_000;
  return Number(m[1]) * unit;
}

/** The next `hh:mm` in the local time zone after `now` (today's, else tomorrow's). */
function nextLocal(now: number, hours: number, minutes: number): number {
  const at = new Date(now);
  at.setHours(hours, minutes, 0, 0);
  if (at.getTime() <= now) at.setDate(at.getDate() + 1);
  return at.getTime();
}

/** "2 checks, group web, tag deploy": what a window covers, in a few words. */
export function describeScope(scope: Pick<MaintenanceScope, 'checks' | 'groups' | 'tags'>): string {
  const part = (what: string, list: readonly string[] | undefined) =>
    !list?.length ? [] : list.length === 1 ? [`${what} ${list[0]}`] : [`${list.length} ${what}s`];
  return [...part('check', scope.checks), ...part('group', scope.groups), ...part('tag', scope.tags)].join(
    ', ',
  );
}

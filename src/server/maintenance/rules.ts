// What a window may be (docs/maintenance.md): a create body or a config
// entry turned into a stored window, a change applied to one, each refusal naming
// its field. Pure: the routes and the config both use it.
import {
  durationMs,
  MAX_OCCURRENCE_MS,
  MAX_ONE_OFF_MS,
  type MaintenanceCreateSchema,
  type MaintenancePatchSchema,
  type MaintenanceWindow,
} from '../../api/schemas/maintenance.js';
import type { z } from 'zod';
import { isTimeZone, occurrenceAt, occurrencesBetween } from '../../domain/maintenance.js';
import type { StoredWindow } from '../storage/types.js';

export type CreateBody = z.output<typeof MaintenanceCreateSchema>;
export type PatchBody = z.output<typeof MaintenancePatchSchema>;

/** One thing wrong with a window, and where. */
export interface Problem {
  path: string;
  message: string;
}

export class WindowProblem extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.path}: ${problem.message}`);
  }
}

const fail = (path: string, message: string): never => {
  throw new WindowProblem({ path, message });
};

/** A create body (or a config entry) as stored; throws WindowProblem. `now` only defaults startsAt. */
export function windowOf(
  body: CreateBody,
  who: { accountId: string; id: string; createdBy: string; now: number },
): StoredWindow {
  if (body.endsAt !== undefined && body.duration !== undefined)
    fail('duration', 'give endsAt or duration, not both');
  if (body.endsAt === undefined && body.duration === undefined)
    fail('endsAt', 'give endsAt or duration: a window must end');
  const startsAt = body.startsAt !== undefined ? Date.parse(body.startsAt) : who.now;
  const endsAt = body.endsAt !== undefined ? Date.parse(body.endsAt) : startsAt + durationMs(body.duration!);
  const endField = body.endsAt !== undefined ? 'endsAt' : 'duration';
  if (endsAt <= startsAt)
    fail(endField, `the window ends (${iso(endsAt)}) before it starts (${iso(startsAt)})`);
  const repeat = body.repeat ?? null;
  if (repeat) {
    if (!isTimeZone(repeat.timezone))
      fail('repeat.timezone', `unknown time zone "${repeat.timezone}": give an IANA name like Europe/Berlin`);
    if (repeat.frequency === 'daily' && repeat.daysOfWeek)
      fail('repeat.daysOfWeek', 'daysOfWeek is for a weekly window; a daily one runs every day');
    if (endsAt - startsAt > MAX_OCCURRENCE_MS)
      fail(endField, 'an occurrence of a recurring window lasts at most 24 hours');
    if (repeat.until !== undefined && Date.parse(`${repeat.until}T23:59:59.999Z`) + 14 * 3_600_000 < startsAt)
      fail('repeat.until', `until (${repeat.until}) is before the first occurrence (${iso(startsAt)})`);
  } else if (endsAt - startsAt > MAX_ONE_OFF_MS) {
    fail(endField, 'a one-off window lasts at most 7 days: a silence must end (repeat it, or make another)');
  }
  return {
    accountId: who.accountId,
    id: who.id,
    name: body.name,
    reason: body.reason,
    createdBy: who.createdBy,
    createdAt: who.now,
    scope: pruneScope(body.scope),
    startsAt,
    endsAt,
    repeat,
    mode: body.mode,
    excludeFromAvailability: body.excludeFromAvailability,
    endedEarlyAt: null,
    occurrenceEnds: {},
  };
}

/**
 * A change: `endsAt` moves the current occurrence's end (the whole window's for a
 * one-off), `"now"` ends it; name and reason apply to the series. Throws WindowProblem,
 * or Conflict when there is nothing active to end.
 */
export function patched(w: StoredWindow, patch: PatchBody, now: number): StoredWindow {
  const next: StoredWindow = { ...w, occurrenceEnds: { ...w.occurrenceEnds } };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.reason !== undefined) next.reason = patch.reason;
  if (patch.endsAt === undefined) return next;
  const { state, occurrence } = occurrenceAt(w, now);
  if (state === 'ended') throw new WindowEnded(endedAt(w, now));
  const end = patch.endsAt === 'now' ? now : Date.parse(patch.endsAt);
  if (!w.repeat) {
    if (patch.endsAt === 'now') {
      // A scheduled one-off ended now never starts: it is cancelled, and kept as ended.
      next.endsAt = Math.max(now, w.startsAt);
      next.endedEarlyAt = now;
      return next;
    }
    if (end <= Math.max(now, w.startsAt))
      fail('endsAt', `the new end (${iso(end)}) is before the window's start or now: use "now" to end it`);
    if (end - w.startsAt > MAX_ONE_OFF_MS) fail('endsAt', 'a one-off window lasts at most 7 days');
    next.endsAt = end;
    return next;
  }
  if (state !== 'active' || !occurrence)
    throw new Conflict(
      'no occurrence of this recurring window is active: endsAt changes the current one only',
    );
  if (patch.endsAt !== 'now') {
    if (end <= now) fail('endsAt', `the new end (${iso(end)}) is not after now: use "now" to end it`);
    if (end - occurrence.startsAt > MAX_OCCURRENCE_MS)
      fail('endsAt', 'an occurrence of a recurring window lasts at most 24 hours');
  }
  next.occurrenceEnds[String(occurrence.startsAt)] = end;
  return next;
}

export class Conflict extends Error {}

/** A change of the end of a window that has ended: a script reads `endedAt`, not these words. */
export class WindowEnded extends Conflict {
  constructor(readonly endedAt: number) {
    super(`the window has ended already (at ${iso(endedAt)})`);
  }
}

/** When an ended window ended: its early end, else its (last occurrence's) end. */
export function endedAt(w: StoredWindow, now: number): number {
  if (w.endedEarlyAt !== null) return w.endedEarlyAt;
  if (!w.repeat) return w.endsAt;
  return occurrencesBetween(w, w.startsAt, now + 1).reduce((last, o) => Math.max(last, o.endsAt), w.endsAt);
}

/** The window as the wire says it, at `now`. */
export function toWire(
  w: StoredWindow,
  source: 'api' | 'config',
  now: number,
  covered: readonly string[],
): MaintenanceWindow {
  const { state, occurrence } = occurrenceAt(w, now);
  return {
    id: w.id,
    name: w.name,
    reason: w.reason,
    createdBy: w.createdBy,
    createdAt: iso(w.createdAt),
    scope: w.scope,
    startsAt: iso(w.startsAt),
    endsAt: iso(w.endsAt),
    repeat: w.repeat,
    mode: w.mode,
    excludeFromAvailability: w.excludeFromAvailability,
    state,
    occurrence: occurrence ? { startsAt: iso(occurrence.startsAt), endsAt: iso(occurrence.endsAt) } : null,
    source,
    endedEarlyAt: w.endedEarlyAt === null ? null : iso(w.endedEarlyAt),
    coveredChecks: [...covered],
  };
}

function pruneScope(scope: CreateBody['scope']): StoredWindow['scope'] {
  const out: StoredWindow['scope'] = {};
  if (scope.checks?.length) out.checks = [...new Set(scope.checks)];
  if (scope.groups?.length) out.groups = [...new Set(scope.groups)];
  if (scope.tags?.length) out.tags = [...new Set(scope.tags)];
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

// One check's status (spec 2.2) from what it is made of (status/inputs.ts), by
// the rules of src/domain/status-rules.ts. The status engine (status/engine.ts)
// keeps the inputs and the statuses and decides when to derive again.
import { runbookFields, runbookOf } from '../config/runbook-keys.js';
import type { CheckStatus } from '../../api/schemas/index.js';
import { daysChangeAt, daysUntil } from '../../domain/certificate.js';
import { round, successRate } from '../../domain/stats.js';
import { decideCheckStatus, decideTrend, staleFrom } from '../../domain/status-rules.js';
import { frequencyToMs, type AccountConfig, type CheckConfig } from '../config/schema.js';
import type { HeartbeatView } from '../heartbeats/judge.js';
import { withHeartbeat } from './heartbeat-status.js';
import { runnerReach } from './runner-reach.js';
import { checkLocations, type StatusInputs } from './inputs.js';
import { windowFigures, windowMovesAt } from './window.js';

/** What a status reads of the machine it is judged on (the service wires both in). */
export interface StatusEnvironment {
  /** Newest contact of a remote location's runners (epoch ms), null when none. */
  runnerSeenAt?: ((accountId: string, locationId: string) => number | null) | undefined;
  /** Why this service cannot run the check (no browser for a browser check); undefined when it can. */
  notRunnableReason?: ((check: Pick<CheckConfig, 'type'>) => string | undefined) | undefined;
  /** A person's pause of the check (docs/actions.md); undefined when it is not paused. */
  pausedOf?: ((accountId: string, checkId: string) => { by: string; since: number } | undefined) | undefined;
  /**
   * Maintenance windows over the check (docs/maintenance.md): the active one ending last, and the
   * active one in pause mode ending last; undefined when none.
   */
  maintenanceOf?:
    | ((
        account: AccountConfig,
        check: CheckConfig,
      ) => { active?: HeldBy | undefined; pause?: HeldBy | undefined } | undefined)
    | undefined;
  /**
   * The occurrences of windows with `excludeFromAvailability` over the check that
   * overlap [from, to] (docs/maintenance.md); none when absent.
   */
  excludedOf?:
    | ((
        account: AccountConfig,
        check: CheckConfig,
        from: number,
        to: number,
      ) => ReadonlyArray<{ startsAt: number; endsAt: number }>)
    | undefined;
  /** A heartbeat check's judgement now (heartbeats/judge.ts); undefined for other checks. */
  heartbeatOf?: ((accountId: string, check: CheckConfig) => HeartbeatView | undefined) | undefined;
}

/** A maintenance window as a status names it; `endsAt` is its occurrence's end (epoch ms). */
export interface HeldBy {
  id: string;
  name: string;
  /** The occurrence's start and end. */
  startsAt: number;
  endsAt: number;
  mode: 'silence' | 'pause';
}

export interface Computed {
  /** Without its schedule, which the engine reads fresh at every answer. */
  status: CheckStatus;
  /**
   * The first moment it may read differently with no result stored (a location's newest
   * run too old, a remote location's runner silent too long, a run leaving a window kept
   * run by run); Infinity when never. Until then, deriving it again gives the same status.
   */
  until: number;
}

/** The status the inputs make at `now`; reads nothing. */
export function deriveStatus(
  inputs: StatusInputs,
  account: AccountConfig,
  check: CheckConfig,
  now: number,
  env: StatusEnvironment = {},
): Computed {
  const a = account.id;
  const { period, previous, incident, recent, latest, alerts, alert, lastSuccess } = inputs;
  const cert = inputs.certificate;
  const locations = checkLocations(account, check);
  const window = windowFigures(inputs.window, now);
  const day = inputs.day ?? window;
  const excluded = excludedRuns(inputs, account, check, now, env);
  const availability = excluded
    ? successRate(excluded.successes, excluded.total)
    : successRate(window.successes, window.total);
  const unrunnable = env.notRunnableReason?.(check);
  const beat = env.heartbeatOf?.(a, check);
  // A heartbeat's runs are as far apart as its due times (its schedule's longest gap).
  const frequencyMs = beat?.periodMs ?? frequencyToMs(check.frequency);
  // A remote location's newest result is its runner's contact too (at the run's start, when it
  // held the run; never later than now): another instance learns of a runner's polls seconds
  // late, through the database, but of its results at once.
  const posted = new Map(
    locations.map((l, i) => [l.id, recent[i]![0] ? Math.min(recent[i]![0].startedAt, now) : null]),
  );
  const seenAt = (locationId: string) =>
    newest(env.runnerSeenAt?.(a, locationId) ?? null, posted.get(locationId) ?? null);
  const reach = runnerReach(seenAt, locations, check, frequencyMs, now);
  const pause = env.pausedOf?.(a, check.id);
  const held = env.maintenanceOf?.(account, check);
  const heldPause = held?.pause;
  const enabled = check.enabled && !pause && !heldPause;
  const decided = decideCheckStatus({
    now,
    enabled,
    runnable: unrunnable === undefined,
    notRunnableReason: unrunnable,
    frequencyMs,
    thresholds: { degradedMs: check.degradedMs, failingMs: check.failingMs, failingRuns: beat ? 1 : 2 },
    availability,
    activeCriticalAlerts: incident ? 1 : 0,
    locations: locations.map((l, i) => ({ id: l.id, recent: recent[i]!, noRunner: reach.missing[i] })),
  });
  const since = pause && new Date(pause.since).toISOString();
  const reasons = [
    pause ? `paused by ${pause.by} since ${since}` : undefined,
    heldPause
      ? `paused by maintenance "${heldPause.name}" until ${new Date(heldPause.endsAt).toISOString()}`
      : undefined,
  ].filter((r) => r !== undefined);
  const decision = reasons.length > 0 ? { ...decided, reason: reasons.join('; ') } : decided;
  const active = held?.active;
  const group = account.groups.find((g) => g.id === check.group);
  const status: CheckStatus = {
    checkId: check.id,
    checkName: check.name,
    checkType: check.type,
    status: decision.status,
    availability: {
      percentage: availability === null ? null : round(availability, 3),
      period,
      ...(excluded ? { excludedRuns: excluded.left } : {}),
    },
    performance: {
      averageResponseTime: window.averageResponseTime === null ? null : round(window.averageResponseTime, 2),
      p95ResponseTime: window.p95ResponseTime,
      trend: decideTrend(
        { averageResponseTime: day.averageResponseTime, availability: successRate(day.successes, day.total) },
        {
          averageResponseTime: previous.averageResponseTime,
          availability: successRate(previous.successes, previous.total),
        },
      ),
    },
    lastExecution: latest?.execution ?? null,
    currentIncident: incident
      ? {
          id: incident.id,
          severity: incident.severity,
          startedAt: new Date(incident.startedAt).toISOString(),
          title: incident.title,
        }
      : null,
    alerts,
    currentAlert: alert,
    schedule: { frequency: check.frequency, nextRun: null, enabled },
    locations: locations.map((l, i) => {
      const at = lastSuccess[i]!;
      const seen = l.remote ? seenAt(l.id) : null;
      const entry: CheckStatus['locations'][number] = {
        id: l.id,
        name: l.name,
        status: decision.locations[i]!.status,
        lastSuccess: at === null ? null : new Date(at).toISOString(),
        remote: l.remote,
        runnerLastSeen: seen === null ? null : new Date(seen).toISOString(),
      };
      if (reach.missing[i]) entry.statusReason = reach.missing[i];
      return entry;
    }),
    tags: check.tags,
    group: group ? { id: group.id, name: group.name } : null,
    ...runbookFields(runbookOf(check, account.groups)),
    statusReason: decision.reason,
    paused: pause ? { by: pause.by, since: since! } : null,
    maintenance: active
      ? {
          ...{ id: active.id, name: active.name, mode: active.mode },
          ...{
            startsAt: new Date(active.startsAt).toISOString(),
            endsAt: new Date(active.endsAt).toISOString(),
          },
        }
      : null,
    certificate: cert && {
      daysRemaining: daysUntil(cert.expiresAt, now),
      validTo: new Date(cert.expiresAt).toISOString(),
    },
    alertAfterFailures: check.alerts.afterFailures,
  };
  return {
    status: beat ? withHeartbeat(status, beat) : status,
    until: Math.min(
      reach.until,
      beat?.judgement.wakeAt ?? Infinity,
      staleAt(recent, frequencyMs, now),
      windowMovesAt(inputs.window, now),
      // The days remaining fall at their moment, with no result stored.
      cert ? daysChangeAt(cert.expiresAt, now) : Infinity,
    ),
  };
}

/**
 * The availability's counts without the runs inside windows that exclude their time
 * (docs/maintenance.md): from the window's runs against the windows' intervals, so nothing more
 * is stored or read. Only where the window is kept run by run (window.ts, at most
 * EXACT_RUNS runs); undefined when no such window overlaps it, or it holds counts only.
 */
function excludedRuns(
  inputs: StatusInputs,
  account: AccountConfig,
  check: CheckConfig,
  now: number,
  env: StatusEnvironment,
): { total: number; successes: number; left: number } | undefined {
  const w = inputs.window;
  if (!env.excludedOf || !w.runs) return undefined;
  const from = now - w.span;
  const spans = env.excludedOf(account, check, from, now);
  if (spans.length === 0) return undefined;
  let total = 0;
  let successes = 0;
  let left = 0;
  for (const r of w.runs) {
    if (r.startedAt < from || r.startedAt > now) continue;
    if (spans.some((o) => r.startedAt >= o.startsAt && r.startedAt < o.endsAt)) left++;
    else {
      total++;
      if (r.ok) successes++;
    }
  }
  return { total, successes, left };
}

/** When the newest run of a location still judged by it grows too old (decideCheckStatus): Infinity when none will. */
function staleAt(recent: StatusInputs['recent'], frequencyMs: number, now: number): number {
  let at = Infinity;
  for (const runs of recent) {
    const deadline = staleFrom(runs[0]?.startedAt ?? Infinity, frequencyMs);
    if (deadline > now) at = Math.min(at, deadline);
  }
  return at;
}

const newest = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.max(x, y));

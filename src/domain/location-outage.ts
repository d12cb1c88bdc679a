// A broken location (docs/alerts.md, "One page per cause"): when many checks turn
// failing at one location at once while they pass at their other locations, the
// likely cause is the location's own network, and one page says so instead of one
// per check. This is the rule alone, on plain data and an injected instant, so its
// edge cases (one check, two checks, flapping across the threshold) are table tests.

export interface OutageSettings {
  /** At least this many checks, across at least this many distinct target hosts. */
  minChecks: number;
  /** And at least this share (0-1) of the checks run here that also run elsewhere. */
  minShare: number;
  /** Turned failing within this many seconds (and, to end, below half the share this long). */
  windowSeconds: number;
}

export const OUTAGE_DEFAULTS: OutageSettings = { minChecks: 5, minShare: 0.5, windowSeconds: 120 };

/** One check run at the location, as its statuses say now. */
export interface CheckHere {
  id: string;
  /** Its target's host: five checks of one host failing are one broken host, not a location. */
  host: string;
  /** When it turned failing at this location; null while it is not failing here. */
  failingSince: number | null;
  /**
   * Whether it passes at its other locations (at least one, and none failing); null when it
   * runs only here: such a check cannot tell the location from its target and is not counted.
   */
  passesElsewhere: boolean | null;
}

export interface Outage {
  since: number;
  /** Since when the share has been below half the threshold (the end waits a whole window of it). */
  quietSince: number | null;
  /** The reason when a remote location's runners are gone rather than its checks failing. */
  noRunner: boolean;
}

export interface OutageInput {
  now: number;
  /** The locations the account's checks run at: with one, nothing can be compared. */
  locationCount: number;
  checks: readonly CheckHere[];
  /** A remote location none of whose runners asked for work within 3 × its shortest frequency. */
  runnerGone: boolean;
  settings: OutageSettings;
}

export interface OutageDecision {
  outage: Outage | null;
  change: 'declared' | 'ended' | null;
  /** The comparable checks failing here now, and how many there are. */
  failing: number;
  total: number;
}

export function decideOutage(current: Outage | null, input: OutageInput): OutageDecision {
  const { now, settings } = input;
  const comparable = input.checks.filter((c) => c.passesElsewhere !== null);
  const failingHere = comparable.filter((c) => c.failingSince !== null);
  const counts = { failing: failingHere.length, total: comparable.length };
  if (input.runnerGone)
    return current
      ? { outage: { ...current, quietSince: null }, change: null, ...counts }
      : { outage: { since: now, quietSince: null, noRunner: true }, change: 'declared', ...counts };
  if (current?.noRunner)
    // The runners are back: the outage of the runners ends; a failing network is judged afresh.
    return { outage: null, change: 'ended', ...counts };
  if (input.locationCount < 2 || comparable.length === 0)
    return current ? { outage: null, change: 'ended', ...counts } : { outage: null, change: null, ...counts };
  if (!current) {
    const declared = shouldDeclare(comparable, input);
    return declared
      ? { outage: { since: now, quietSince: null, noRunner: false }, change: 'declared', ...counts }
      : { outage: null, change: null, ...counts };
  }
  // An outage ends when the share stays below half the threshold for a whole window.
  const share = failingHere.filter((c) => c.passesElsewhere).length / comparable.length;
  if (share >= settings.minShare / 2)
    return { outage: { ...current, quietSince: null }, change: null, ...counts };
  const quietSince = current.quietSince ?? now;
  if (now - quietSince >= settings.windowSeconds * 1000) return { outage: null, change: 'ended', ...counts };
  return { outage: { ...current, quietSince }, change: null, ...counts };
}

function shouldDeclare(comparable: readonly CheckHere[], input: OutageInput): boolean {
  const { now, settings } = input;
  const windowMs = settings.windowSeconds * 1000;
  const recent = comparable.filter((c) => c.failingSince !== null && now - c.failingSince <= windowMs);
  if (recent.length < settings.minChecks) return false;
  if (new Set(recent.map((c) => c.host)).size < settings.minChecks) return false;
  if (recent.length < settings.minShare * comparable.length) return false;
  // The location, not the targets: at least two thirds of them pass where else they run.
  return recent.filter((c) => c.passesElsewhere).length * 3 >= recent.length * 2;
}

/** The page's words: "Singapore: 12 of 14 checks failing since 03:12 while they pass elsewhere; …". */
export function outageWords(
  name: string,
  d: Pick<OutageDecision, 'failing' | 'total'>,
  since: string,
  noRunner: boolean,
) {
  return noRunner
    ? `${name}: no runner has asked for work since ${since}; the location's runners are the likely cause, and its checks are held`
    : `${name}: ${d.failing} of ${d.total} checks failing since ${since} while they pass elsewhere; the location's network is the likely cause`;
}

// What the per-check families of /metrics say of each check and remote location,
// gathered on the service's thread from the statuses the list serves (the status
// engine's, presented), so every instance answers the same, except the run counts,
// this instance's own (run-tally.ts). Compact on purpose: strings in one list and
// numbers in one typed array, posted to the thread that writes the text
// (metrics-thread.ts) at little cost to the service's thread.
import { setImmediate as turn } from 'node:timers/promises';
import type { CheckStatus } from '../../api/schemas/index.js';
import { CHECK_STATUSES } from '../../api/schemas/index.js';
import type { AccountConfig } from '../config/schema.js';
import { RUNNER_CONNECTED_MS } from '../schedule/runner-contact.js';
import type { RunTally } from './run-tally.js';

/** The labels of a check's series, in this order, LABELS_PER_CHECK of them per check. */
export const CHECK_LABELS = ['account', 'check_id', 'check_name', 'check_type', 'group'] as const;
export const LABELS_PER_CHECK = CHECK_LABELS.length;

/** Where each of a check's numbers sits in its row of `values`; NaN: no series. */
export const VALUE = {
  /** The index of its status in CHECK_STATUSES. */
  status: 0,
  availability: 1,
  avg: 2,
  p95: 3,
  succeeded: 4,
  failed: 5,
  certificateExpiry: 6,
  maintenance: 7,
} as const;
export const VALUES_PER_CHECK = Object.keys(VALUE).length;

export interface LocationRow {
  account: string;
  location: string;
  runners: number;
  /** Newest contact of any runner, Unix seconds; null when none ever called. */
  seen: number | null;
}

export interface CheckRows {
  /** LABELS_PER_CHECK strings per check, in CHECK_LABELS order. */
  labels: string[];
  /** VALUES_PER_CHECK numbers per check, at the VALUE offsets. */
  values: Float64Array;
  locations: LocationRow[];
}

export interface CheckRowsDeps {
  /**
   * The account's statuses in config order, as GET /v1/check-statuses serves them: the
   * i-th, presented when asked for (so the presenting is sliced with the rest).
   */
  statuses(account: AccountConfig): Promise<(i: number) => CheckStatus | undefined>;
  runs: RunTally;
  runners: {
    lastSeen(accountId: string, locationId: string): number | null;
    runnersSince(accountId: string, locationId: string, since: number): number;
  };
  now(): number;
}

/** A remote location's runner counts as connected when in touch this lately (as run now's wait). */

// Checks between two turns of the event loop.
const SLICE = 2_000;

const STATUS_INDEX = new Map(CHECK_STATUSES.map((s, i) => [s, i]));

/** These accounts' checks and remote locations, as the families will say them. */
export async function checkRows(accounts: readonly AccountConfig[], deps: CheckRowsDeps): Promise<CheckRows> {
  const now = deps.now();
  const all = await Promise.all(accounts.map((account) => deps.statuses(account)));
  const size = accounts.reduce((n, a) => n + a.checks.length, 0);
  const labels: string[] = [];
  const values = new Float64Array(size * VALUES_PER_CHECK);
  let row = 0;
  let looked = 0;
  for (const [a, account] of accounts.entries()) {
    const statuses = all[a]!;
    for (const [i, check] of account.checks.entries()) {
      // In slices: requests are answered between them.
      if (++looked % SLICE === 0) await turn();
      const s = statuses(i);
      // A check the statuses do not follow yet (a reload under way) waits for the next snapshot.
      if (!s || s.checkId !== check.id) continue;
      labels.push(account.id, check.id, check.name, check.type, check.group ?? '');
      const at = row++ * VALUES_PER_CHECK;
      values[at + VALUE.status] = STATUS_INDEX.get(s.status)!;
      values[at + VALUE.availability] =
        s.availability.percentage === null ? NaN : fraction(s.availability.percentage);
      const { averageResponseTime: avg, p95ResponseTime: p95 } = s.performance;
      values[at + VALUE.avg] = avg === null ? NaN : seconds(avg);
      values[at + VALUE.p95] = p95 === null ? NaN : seconds(p95);
      const [succeeded, failed] = deps.runs.of(account.id, check.id);
      values[at + VALUE.succeeded] = succeeded;
      values[at + VALUE.failed] = failed;
      values[at + VALUE.certificateExpiry] = s.certificate ? Date.parse(s.certificate.validTo) / 1000 : NaN;
      values[at + VALUE.maintenance] = s.maintenance ? 1 : 0;
    }
  }
  const locations = accounts.flatMap((account) => locationRows(account, deps, now));
  return { labels, values: values.subarray(0, row * VALUES_PER_CHECK), locations };
}

/** The account's remote locations: runners in touch, and the newest contact. */
function locationRows(account: AccountConfig, deps: CheckRowsDeps, now: number): LocationRow[] {
  return account.locations
    .filter((location) => location.remote)
    .map((location) => {
      const seen = deps.runners.lastSeen(account.id, location.id);
      return {
        account: account.id,
        location: location.id,
        runners: deps.runners.runnersSince(account.id, location.id, now - RUNNER_CONNECTED_MS),
        seen: seen === null ? null : seen / 1000,
      };
    });
}

// Rounded to a millionth: a percentage over 100 or milliseconds over 1000 is otherwise often
// a binary fraction's 17 digits, longer to write and never the same twice for a family to keep.
const fraction = (percentage: number) => Math.round(percentage * 10_000) / 1_000_000;
const seconds = (ms: number) => Math.round(ms * 1000) / 1_000_000;

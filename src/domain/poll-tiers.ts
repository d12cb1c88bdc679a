/**
 * Tiered polling of the check statuses, for accounts too large to read whole
 * every refresh.
 *
 *   - Up to PAGES_EVERY_REFRESH pages (1,000 checks): the whole list every refresh.
 *   - Beyond: the failing and degraded checks (the `status` filter, the "hot"
 *     reads) every refresh, so a check turning failing shows within one
 *     interval; the whole list once every `sweepEvery` refreshes, where
 *     sweepEvery = ceil(pages / PAGES_EVERY_REFRESH), and more when that would
 *     still ask for more than RATE_SHARE of the service's rate limit.
 *   - A check that left the hot lists (recovered, or went unknown) is only seen
 *     again in the whole list: it brings the next sweep forward, but never
 *     closer than `minGap` refreshes after the last, the rate limit's bound.
 *
 * The service's limit is a token bucket per account (server/http/auth.ts,
 * createRateLimiter: 50 a second, burst 500), shared by every console of the
 * account: one console keeps to a fifth of it.
 */
export const PAGE_SIZE = 100;
export const PAGES_EVERY_REFRESH = 10;
export const SERVICE_RATE_PER_SECOND = 50;
export const RATE_SHARE = 0.2;

export interface TierPlan {
  /** False when the whole list is read every refresh. */
  tiered: boolean;
  /** The whole list once every this many refreshes (1 when not tiered). */
  sweepEvery: number;
  /** The fewest refreshes between two sweeps, even when one is brought forward. */
  minGap: number;
}

/**
 * @param totalPages pages of the whole list at PAGE_SIZE
 * @param refreshMs the console's refresh interval
 * @param hotPages pages the failing and degraded reads took last time (at least one each)
 */
export function planTiers(totalPages: number, refreshMs: number, hotPages = 2): TierPlan {
  if (totalPages <= PAGES_EVERY_REFRESH) return { tiered: false, sweepEvery: 1, minGap: 1 };
  const budget = (SERVICE_RATE_PER_SECOND * RATE_SHARE * refreshMs) / 1_000;
  // What one refresh may spend on the whole list, on average, after the hot reads.
  const forSweeps = Math.max(1, budget - Math.max(2, hotPages));
  const minGap = Math.min(totalPages, Math.ceil(totalPages / forSweeps));
  const sweepEvery = Math.max(Math.ceil(totalPages / PAGES_EVERY_REFRESH), minGap);
  return { tiered: true, sweepEvery, minGap };
}

export interface SweepInput {
  plan: TierPlan;
  /** Refreshes since the last sweep; undefined before the first one. */
  sinceSweep: number | undefined;
  /** A check left the hot lists since the last sweep. */
  leftHot: boolean;
}

/** Whether the coming refresh reads the whole list. */
export function sweepDue({ plan, sinceSweep, leftHot }: SweepInput): boolean {
  if (!plan.tiered || sinceSweep === undefined) return true;
  const coming = sinceSweep + 1;
  return coming >= plan.sweepEvery || (leftHot && coming >= plan.minGap);
}

/** The line for the header and `?` help, or null when the whole list is read every refresh. */
export function describeTiers(plan: TierPlan, refreshMs: number): string | null {
  if (!plan.tiered) return null;
  return `failing+degraded every ${seconds(refreshMs)}, all checks every ${seconds(refreshMs * plan.sweepEvery)}`;
}

/** The header's short form: how often the whole list is read, or null. */
export function describeSweep(plan: TierPlan, refreshMs: number): string | null {
  return plan.tiered ? `all checks every ${seconds(refreshMs * plan.sweepEvery)}` : null;
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1_000);
  return s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}

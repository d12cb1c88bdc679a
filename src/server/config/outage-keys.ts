// An account's `locationOutage` settings (docs/alerts.md, "A broken location"): when enough
// checks at one location turn failing together while they pass elsewhere, one page names
// the location instead of one per check. The rule is src/domain/location-outage.ts.
import { z } from 'zod';
import { OUTAGE_DEFAULTS } from '../../domain/location-outage.js';

export const LocationOutageConfigSchema = z.strictObject({
  /** false: no location is ever declared down; every check pages on its own. */
  enabled: z.boolean().default(true),
  /** At least this many checks, across at least this many distinct target hosts. */
  minChecks: z.number().int().min(2).max(10_000).default(OUTAGE_DEFAULTS.minChecks),
  /** And at least this share (0-1) of the location's checks that also run elsewhere. */
  minShare: z.number().gt(0).max(1).default(OUTAGE_DEFAULTS.minShare),
  /** Turned failing within this many seconds; the outage ends after a whole window below half the share. */
  windowSeconds: z.number().int().min(10).max(3600).default(OUTAGE_DEFAULTS.windowSeconds),
  /**
   * The longest a failure page at a location waits for the location's decision (docs/alerts.md,
   * "No race"); default: one round of the location's checks (shortest frequency plus timeout), at most 60 s.
   */
  holdWaitSeconds: z.number().int().min(0).max(600).optional(),
});
export type LocationOutageConfig = z.infer<typeof LocationOutageConfigSchema>;

export const OUTAGE_KEYS = { locationOutage: LocationOutageConfigSchema.prefault({}) };

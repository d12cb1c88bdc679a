// Who may reach a location: a remote location with no runner in touch for 3
// periods of a check cannot run it, and the check's status says so.
import { staleFrom } from '../../domain/status-rules.js';
import type { CheckConfig, LocationConfig } from '../config/schema.js';

/**
 * For the status engine: which of a check's remote locations have had no runner in
 * touch for 3 x its frequency (their reason, by index), and when the next one would
 * turn so (its cached status expires then; Infinity when none can).
 */
export function runnerReach(
  lastSeen: (locationId: string) => number | null,
  locations: readonly LocationConfig[],
  check: Pick<CheckConfig, 'type'>,
  frequencyMs: number,
  now: number,
): { missing: Array<string | undefined>; until: number } {
  let until = Infinity;
  const missing = locations.map((l) => {
    // Heartbeats are judged by the service, wherever their location is.
    if (!l.remote || check.type === 'heartbeat') return undefined;
    const at = lastSeen(l.id);
    if (at !== null && now < staleFrom(at, frequencyMs)) {
      until = Math.min(until, staleFrom(at, frequencyMs));
      return undefined;
    }
    return `no runner connected for ${l.name}`;
  });
  return { missing, until };
}

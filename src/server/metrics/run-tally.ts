// Each check's runs stored by this instance, by result: the counter behind
// checkwall_check_runs_total. Per instance, as Prometheus counters are: a run is
// counted where its result was stored (a remote runner's where it reported), so
// the sum over instances is every run once.
import type { ResultStatus } from '../../api/schemas/index.js';
import { checkKey } from '../../domain/keys.js';

export interface RunTally {
  stored(accountId: string, checkId: string, result: ResultStatus): void;
  /** Runs of the check stored here since start: [succeeded, failed]. */
  of(accountId: string, checkId: string): readonly [number, number];
}

const NONE = [0, 0] as const;

export function createRunTally(): RunTally {
  const counts = new Map<string, [number, number]>();
  return {
    stored(accountId, checkId, result) {
      const key = checkKey(accountId, checkId);
      let pair = counts.get(key);
      if (!pair) counts.set(key, (pair = [0, 0]));
      pair[result === 'success' ? 0 : 1]++;
    },
    of: (accountId, checkId) => counts.get(checkKey(accountId, checkId)) ?? NONE,
  };
}

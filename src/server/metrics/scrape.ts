// A scrape of /metrics: this instance's own families, then the per-check ones of the
// scope (one account's, for its key; every account's, for the sidecar port) from the
// kept snapshot (snapshot.ts). One registry per scope, never prom-client's global one.
import type { Registry } from 'prom-client';
import type { Clock } from '../../domain/clock.js';
import type { AccountConfig } from '../config/schema.js';
import { renderChecks, type CheckFamiliesDeps, type RenderedChecks } from './check-families.js';
import { createSnapshots } from './snapshot.js';

export interface Scrape {
  contentType: string;
  /** One account's scrape; null: every account's (the sidecar). */
  text(account: AccountConfig | null): Promise<string>;
}

export interface ScrapeDeps extends Omit<CheckFamiliesDeps, 'now'> {
  instance: Registry;
  /** The accounts as configured now (a reload replaces them). */
  accounts(): readonly AccountConfig[];
  clock: Pick<Clock, 'now'>;
}

export function createScrape(deps: ScrapeDeps): Scrape {
  const snapshots = createSnapshots<RenderedChecks>(deps.clock);
  const families = { ...deps, now: deps.clock.now };
  return {
    contentType: deps.instance.contentType,
    async text(account) {
      const scope = account?.id ?? '';
      const current = () => {
        const all = deps.accounts();
        return account ? [all.find((a) => a.id === account.id) ?? account] : all;
      };
      const [own, checks] = await Promise.all([
        deps.instance.metrics(),
        snapshots.read(scope, (previous) => renderChecks(current(), families, previous)),
      ]);
      return own + checks.text;
    },
  };
}

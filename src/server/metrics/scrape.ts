// A scrape of /metrics: this instance's own families, then the per-check ones of the
// scope (one account's, for its key; every account's, for the sidecar port) from the
// kept snapshot (snapshot.ts). One registry per scope, never prom-client's global one.
import { promisify } from 'node:util';
import { gzip as zlibGzip } from 'node:zlib';
import type { Registry } from 'prom-client';
import type { Clock } from '../../domain/clock.js';
import type { AccountConfig } from '../config/schema.js';
import { renderChecks, type CheckFamiliesDeps, type RenderedChecks } from './check-families.js';
import { createSnapshots } from './snapshot.js';

export interface Scrape {
  contentType: string;
  /** One account's scrape; null: every account's (the sidecar). */
  text(account: AccountConfig | null): Promise<string>;
  /**
   * The same, gzipped: two gzip members, the instance's families compressed at each
   * scrape and the per-check ones once per snapshot (a client reads concatenated members
   * as one stream, as Prometheus's does).
   */
  gzipped(account: AccountConfig | null): Promise<Buffer>;
}

const gzip = promisify(zlibGzip);

export interface ScrapeDeps extends Omit<CheckFamiliesDeps, 'now'> {
  instance: Registry;
  /** The accounts as configured now (a reload replaces them). */
  accounts(): readonly AccountConfig[];
  clock: Pick<Clock, 'now'>;
}

export function createScrape(deps: ScrapeDeps): Scrape {
  const snapshots = createSnapshots<RenderedChecks>(deps.clock);
  const families = { ...deps, now: deps.clock.now };
  // Each snapshot's text is compressed once, by the first gzipped scrape that reads it.
  const compressed = new WeakMap<RenderedChecks, Promise<Buffer>>();
  const parts = (account: AccountConfig | null) => {
    const scope = account?.id ?? '';
    const current = () => {
      const all = deps.accounts();
      return account ? [all.find((a) => a.id === account.id) ?? account] : all;
    };
    return Promise.all([
      deps.instance.metrics(),
      snapshots.read(scope, (previous) => renderChecks(current(), families, previous)),
    ]);
  };
  return {
    contentType: deps.instance.contentType,
    async text(account) {
      const [own, checks] = await parts(account);
      return own + checks.text;
    },
    async gzipped(account) {
      const [own, checks] = await parts(account);
      let kept = compressed.get(checks);
      if (!kept) {
        kept = gzip(checks.text);
        compressed.set(checks, kept);
      }
      const [head, tail] = await Promise.all([gzip(own), kept]);
      return Buffer.concat([head, tail]);
    },
  };
}

// A scrape of /metrics: the per-check families of the scope (one account's, for its
// key; every account's, for the sidecar port) from the snapshot built ahead
// (snapshot.ts) on the metrics thread (metrics-thread.ts), then this instance's own
// families, read at each scrape. One registry per scope, never prom-client's global one.
import type { Registry } from 'prom-client';
import type { Clock } from '../../domain/clock.js';
import type { AccountConfig } from '../config/schema.js';
import type { RenderedChecks } from './check-families.js';
import { checkRows, type CheckRowsDeps } from './check-rows.js';
import { gzipOf, inflatePieces } from './gzip-stream.js';
import { createMetricsThread } from './metrics-thread.js';
import { createSnapshots } from './snapshot.js';

export interface Scrape {
  contentType: string;
  /**
   * One account's scrape (null: every account's, the sidecar's): the per-check families,
   * then the instance's. Gzipped, it is one gzip stream: the per-check families' pieces,
   * compressed once per snapshot, then the instance's families, compressed at each
   * scrape (gzip-stream.ts). Not gzipped, the same inflated.
   */
  body(account: AccountConfig | null, gzipped: boolean): Promise<Buffer>;
  /** Stops building ahead and ends the metrics thread. */
  close(): Promise<void>;
}

export interface ScrapeDeps extends Omit<CheckRowsDeps, 'now'> {
  instance: Registry;
  /** The accounts as configured now (a reload replaces them). */
  accounts(): readonly AccountConfig[];
  clock: Pick<Clock, 'now' | 'setInterval' | 'clearInterval'>;
  /**
   * The metrics thread's entry (default: metrics-worker.js beside metrics-thread.js;
   * tests running from source point at a built one).
   */
  thread?: URL;
  log(line: string): void;
}

export function createScrape(deps: ScrapeDeps): Scrape {
  const snapshots = createSnapshots<RenderedChecks>(deps.clock, deps.log);
  const thread = createMetricsThread(deps.thread, deps.log);
  const rowDeps = { ...deps, now: deps.clock.now };
  const checks = (account: AccountConfig | null) => {
    const scope = account?.id ?? '';
    // The accounts as configured when the snapshot is built (an account a reload removed has none).
    const current = () => {
      const all = deps.accounts();
      return account ? all.filter((a) => a.id === account.id) : all;
    };
    return snapshots.read(scope, async () => thread.render(scope, await checkRows(current(), rowDeps)));
  };
  return {
    contentType: deps.instance.contentType,
    async body(account, gzipped) {
      const [own, kept] = await Promise.all([deps.instance.metrics(), checks(account)]);
      const tail = Buffer.from(own);
      // A client that takes no gzip (curl without --compressed) is sent it inflated, off the main thread.
      if (!gzipped) return Buffer.concat([await inflatePieces(kept), tail]);
      return gzipOf(kept, tail);
    },
    close() {
      snapshots.stop();
      return thread.close();
    },
  };
}

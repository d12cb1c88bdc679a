// PostgreSQL storage through pg (docs/runners.md): the whole Storage interface, the run
// queue, and `changes` (LISTEN/NOTIFY between instances, see pg/changes.ts).
// Several `checkwall serve` processes may share one database: migrations wait on
// an advisory lock, claims skip locked rows, and stored results are announced.
import pg from 'pg';
import { createPgAccountStore } from './account.js';
import { createPgAlertStore } from './alerts.js';
import { createPgAuditStore } from './audit.js';
import { createChanges, type Changes } from './changes.js';
import { createPgChannelStore } from './channels.js';
import { changed, createPool, transaction } from './db.js';
import { createPgOutboxReader } from './outbox.js';
import { createPgResultStore, writeResults, writeScreenshot } from './results.js';
import { createPgCertificateReads } from './certificates.js';
import { createPgRunQueue, instanceName } from './runs.js';
import { migratePg } from './schema.js';
import { createPgPauseStore } from './pauses.js';
import { createPgMaintenanceStore } from './maintenance.js';
import { createPgOutageStore } from './outages.js';
import { describePgUrl, hidePassword } from './url.js';
import { StorageError } from '../sqlite/index.js';
import type { HistoryCutoffs, Storage } from '../types.js';

export type PgStorage = Storage & {
  readonly kind: 'postgres';
  /** Changes stored by any instance on this database, as they commit. */
  readonly changes: Changes;
};

export interface PgOptions {
  /** Connections in the pool (the LISTEN client is one more). */
  poolSize?: number;
}

export async function openPgStorage(url: string, options: PgOptions = {}): Promise<PgStorage> {
  const pool = createPool(url, options.poolSize);
  try {
    await transaction(pool, migratePg);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StorageError(
      `cannot open the database ${describePgUrl(url)}: ${hidePassword(reasonOf(error), url)}`,
    );
  }
  return withStores(pool, url);
}

function withStores(pool: pg.Pool, url: string): PgStorage {
  const changes = createChanges(
    pool,
    (origin) =>
      new pg.Client({
        connectionString: url,
        application_name: instanceName(origin),
        connectionTimeoutMillis: 10_000,
      }),
  );
  const { origin } = changes;
  return {
    kind: 'postgres',
    changes,
    ...createPgResultStore(pool),
    ...createPgCertificateReads(pool),
    insertResult: (accountId, result) => writeResults(pool, origin, accountId, [result]),
    insertResults: (accountId, results) => writeResults(pool, origin, accountId, results),
    insertScreenshot: (accountId, result, png) => writeScreenshot(pool, accountId, result, png),
    ...createPgAccountStore(pool),
    ...createPgChannelStore(pool),
    ...createPgAuditStore(pool),
    ...createPgAlertStore(pool, origin),
    ...createPgOutboxReader(pool),
    ...createPgRunQueue(pool, origin),
    ...createPgPauseStore(pool),
    ...createPgMaintenanceStore(pool),
    ...createPgOutageStore(pool),
    prune: (before, history) => prune(pool, before, history ?? { before, hourlyBefore: before }),
    async close() {
      await changes.close();
      await pool.end();
    },
  };
}

/** Deletes what is older than the cut-off, in one transaction; returns how many results went. */
function prune(pool: pg.Pool, before: number, history: HistoryCutoffs): Promise<number> {
  return transaction(pool, async (c) => {
    // Open incidents and alerts stay whatever their age: the check has not recovered.
    // Incidents and roll-ups are history (docs/status-page.md): they go by historyDays.
    await c.query('DELETE FROM incidents WHERE ended_at IS NOT NULL AND ended_at < $1', [history.before]);
    await c.query('DELETE FROM history_daily WHERE bucket_start < $1', [history.before]);
    await c.query('DELETE FROM history_hourly WHERE bucket_start < $1', [history.hourlyBefore]);
    await c.query('DELETE FROM check_alerts WHERE resolved_at IS NOT NULL AND resolved_at < $1', [before]);
    // A pending notification is still owed: only finished ones go.
    await c.query("DELETE FROM alert_notifications WHERE status != 'pending' AND created_at < $1", [before]);
    await c.query('DELETE FROM screenshots WHERE started_at < $1', [before]);
    // An end is claimed so that one instance pages for it; the sweep looks back minutes, not days.
    await c.query('DELETE FROM maintenance_ends WHERE ends_at < $1', [before]);
    await c.query('DELETE FROM hold_pages WHERE ends_at < $1', [before]);
    await c.query('DELETE FROM location_outages WHERE ended_at IS NOT NULL AND end_paged AND ended_at < $1', [
      history.before,
    ]);
    // Ended maintenance windows are history too; a deleted one's tombstone is read within seconds.
    await c.query('DELETE FROM maintenance_windows WHERE last_end < $1', [history.before]);
    await c.query('DELETE FROM maintenance_windows WHERE deleted AND updated_at < $1', [before]);
    return changed(c, 'DELETE FROM results WHERE started_at < $1', [before]);
  });
}

/** A failed connection's reason; a refused connection to a name of several addresses has an empty message. */
function reasonOf(error: unknown): string {
  const e = error as Error & { code?: string; errors?: Error[] };
  return e.message || e.errors?.[0]?.message || e.code || String(error);
}

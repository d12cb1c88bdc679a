// SQLite storage through better-sqlite3: WAL, foreign keys, migrations.
// The only module tree that writes SQL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './schema.js';
import { createAccountStore } from './sqlite-account.js';
import { createAlertStore } from './sqlite-alerts.js';
import { createChannelStore } from './sqlite-channels.js';
import { createResultStore } from './sqlite-results.js';
import { createRunStore } from './sqlite-runs.js';
import { checkpointOffThread, type Checkpointer } from './sqlite-checkpoint.js';
import { createScreenshotStore } from './sqlite-screenshots.js';
import { promised, type Sync } from './promised.js';
import type { AlertChange, Storage } from './types.js';

export class StorageError extends Error {
  override readonly name = 'StorageError';
}

export function openSqliteStorage(path: string): Storage {
  let db: Database.Database | undefined;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    // NORMAL under WAL: a committed transaction survives a killed process;
    // only an OS crash may lose the last ones.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
  } catch (error) {
    db?.close();
    throw new StorageError(`cannot open the database ${path}: ${(error as Error).message}`);
  }
  return withStores(db, path === ':memory:' ? undefined : checkpointOffThread(db, path));
}

/** What answers a promise of its own: offers and reports wait for others to commit with, close for the checkpoint thread. */
type Apart = 'offerRun' | 'completeRun' | 'close';

function withStores(db: Database.Database, checkpointer: Checkpointer | undefined): Storage {
  const pruneResults = db.prepare('DELETE FROM results WHERE started_at < ?');
  const pruneScreenshots = db.prepare('DELETE FROM screenshots WHERE started_at < ?');
  const pruneAlertEvents = db.prepare('DELETE FROM alert_events WHERE at < ?');
  // Open incidents and alerts stay whatever their age: the check has not recovered.
  const pruneIncidents = db.prepare('DELETE FROM incidents WHERE ended_at IS NOT NULL AND ended_at < ?');
  const pruneAlerts = db.prepare(
    'DELETE FROM check_alerts WHERE resolved_at IS NOT NULL AND resolved_at < ?',
  );
  // A pending notification is still owed: only finished ones go.
  const pruneNotifications = db.prepare(
    "DELETE FROM alert_notifications WHERE status != 'pending' AND created_at < ?",
  );
  const prune = db.transaction((before: number) => {
    pruneAlertEvents.run(before);
    pruneIncidents.run(before);
    pruneAlerts.run(before);
    pruneNotifications.run(before);
    pruneScreenshots.run(before);
    return pruneResults.run(before).changes;
  });
  const account = createAccountStore(db);
  const { writeChange, ...alerts } = createAlertStore(db);
  // The incident, the alert and the outbox rows of one status change: all or nothing.
  const apply = db.transaction((accountId: string, change: AlertChange) => {
    if (change.openIncident) account.openIncident(accountId, change.openIncident);
    if (change.closeIncidentAt !== undefined)
      account.closeIncident(accountId, change.checkId, change.closeIncidentAt);
    writeChange(accountId, change);
  });
  const results = createResultStore(db);
  const screenshots = createScreenshotStore(db);
  const { offerRun, completeRun, ...runs } = createRunStore(db, {
    insertResult: results.insertResult,
    insertScreenshot: screenshots.insertScreenshot,
  });
  const sync: Omit<Sync<Storage>, Apart> = {
    ...results,
    ...screenshots,
    ...runs,
    ...account,
    ...createChannelStore(db),
    ...alerts,
    applyAlertChange: (accountId: string, change: AlertChange) => apply.immediate(accountId, change),
    prune: (before: number) => prune(before),
  };
  // Offers and reports made before close are committed before it: they wait up to 20 ms.
  const pending = new Set<Promise<unknown>>();
  const tracked =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const answer = call(...args);
      pending.add(answer);
      answer.then(
        () => pending.delete(answer),
        () => pending.delete(answer),
      );
      return answer;
    };
  async function close() {
    await Promise.allSettled([...pending]);
    await checkpointer?.stop();
    db.close();
  }
  return {
    ...promised<Omit<Storage, Apart>>(sync),
    offerRun: tracked(offerRun),
    completeRun: tracked(completeRun),
    close,
  };
}

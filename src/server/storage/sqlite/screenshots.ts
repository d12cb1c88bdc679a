// Screenshots of browser runs: one PNG per result, read only by its endpoint.
import type Database from 'better-sqlite3';
import type { Sync } from '../promised.js';
import type { Storage } from '../types.js';

export function createScreenshotStore(
  db: Database.Database,
): Sync<Pick<Storage, 'insertScreenshot' | 'screenshot'>> {
  const insert = db.prepare(
    `INSERT OR REPLACE INTO screenshots (result_id, account_id, check_id, started_at, png) VALUES (?, ?, ?, ?, ?)`,
  );
  const read = db.prepare(
    `SELECT png FROM screenshots WHERE result_id = ? AND account_id = ? AND check_id = ?`,
  );
  return {
    insertScreenshot(accountId, result, png) {
      insert.run(result.id, accountId, result.checkId, Date.parse(result.startedAt), Buffer.from(png));
    },
    screenshot(accountId, checkId, resultId) {
      const row = read.get(resultId, accountId, checkId) as { png: Buffer } | undefined;
      return row?.png ?? null;
    },
  };
}

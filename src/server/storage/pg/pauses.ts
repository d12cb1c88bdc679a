// A person's pause of a check (docs/actions.md), kept so it outlives a restart and a reload
// and reaches every instance on the database.
import type pg from 'pg';
import { changed, rows } from './db.js';
import type { CheckPause, Storage } from '../types.js';

const COLUMNS = 'account_id AS "accountId", check_id AS "checkId", paused_by AS "by", since';

export function createPgPauseStore(pool: pg.Pool): Pick<Storage, 'pauseCheck' | 'resumeCheck' | 'pauses'> {
  return {
    async pauseCheck(p) {
      await pool.query(
        `INSERT INTO check_pauses (account_id, check_id, paused_by, since) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
        [p.accountId, p.checkId, p.by, p.since],
      );
      const [kept] = await rows<CheckPause>(
        pool,
        `SELECT ${COLUMNS} FROM check_pauses WHERE account_id = $1 AND check_id = $2`,
        [p.accountId, p.checkId],
      );
      return kept ?? p;
    },
    resumeCheck: async (accountId, checkId) =>
      (await changed(pool, 'DELETE FROM check_pauses WHERE account_id = $1 AND check_id = $2', [
        accountId,
        checkId,
      ])) > 0,
    pauses: () => rows<CheckPause>(pool, `SELECT ${COLUMNS} FROM check_pauses`),
  };
}

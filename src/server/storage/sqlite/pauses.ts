// A person's pause of a check (docs/actions.md), kept so it outlives a restart and a reload.
import type Database from 'better-sqlite3';
import type { Sync } from '../promised.js';
import type { CheckPause, Storage } from '../types.js';

const COLUMNS = 'account_id AS accountId, check_id AS checkId, paused_by AS "by", since';

export function createPauseStore(
  db: Database.Database,
): Pick<Sync<Storage>, 'pauseCheck' | 'resumeCheck' | 'pauses'> {
  const insert = db.prepare(
    'INSERT INTO check_pauses (account_id, check_id, paused_by, since) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const one = db.prepare(`SELECT ${COLUMNS} FROM check_pauses WHERE account_id = ? AND check_id = ?`);
  const remove = db.prepare('DELETE FROM check_pauses WHERE account_id = ? AND check_id = ?');
  const all = db.prepare(`SELECT ${COLUMNS} FROM check_pauses`);
  return {
    pauseCheck(p) {
      insert.run(p.accountId, p.checkId, p.by, p.since);
      return one.get(p.accountId, p.checkId) as CheckPause;
    },
    resumeCheck: (accountId, checkId) => remove.run(accountId, checkId).changes > 0,
    pauses: () => all.all() as CheckPause[],
  };
}

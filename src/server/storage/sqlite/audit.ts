// The audit trail (docs/actions.md): every action of a key, newest first.
import type Database from 'better-sqlite3';
import type { AuditAction } from '../../../api/schemas/actions.js';
import type { AuditQuery, AuditRow } from '../types.js';

interface RawAudit {
  id: string;
  at: number;
  keyName: string;
  action: AuditAction;
  checkId: string | null;
  targetId: string | null;
  details: string;
}

const COLUMNS = `id, at, key_name AS keyName, action, check_id AS checkId, target_id AS targetId, details`;

export function createAuditStore(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO audit_events (id, account_id, at, key_name, action, check_id, target_id, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    recordAudit: (accountId: string, e: AuditRow) =>
      void insert.run(
        e.id,
        accountId,
        e.at,
        e.keyName,
        e.action,
        e.checkId ?? null,
        e.targetId ?? null,
        JSON.stringify(e.details),
      ),
    auditEvents(accountId: string, q: AuditQuery) {
      const where = ['account_id = ?'];
      const params: Array<string | number> = [accountId];
      const filter = (clause: string, value: string | number | undefined) => {
        if (value === undefined) return;
        where.push(clause);
        params.push(value);
      };
      filter('check_id = ?', q.checkId);
      filter('action = ?', q.action);
      filter('at >= ?', q.from);
      filter('at <= ?', q.to);
      const sql = `FROM audit_events WHERE ${where.join(' AND ')}`;
      const { total } = db.prepare(`SELECT count(*) AS total ${sql}`).get(...params) as { total: number };
      const rows = db
        .prepare(`SELECT ${COLUMNS} ${sql} ORDER BY at DESC, seq DESC LIMIT ? OFFSET ?`)
        .all(...params, q.limit, q.offset) as RawAudit[];
      return { items: rows.map(toAuditRow), total };
    },
  };
}

function toAuditRow(r: RawAudit): AuditRow {
  const row: AuditRow = {
    id: r.id,
    at: r.at,
    keyName: r.keyName,
    action: r.action,
    details: JSON.parse(r.details) as Record<string, unknown>,
  };
  if (r.checkId !== null) row.checkId = r.checkId;
  if (r.targetId !== null) row.targetId = r.targetId;
  return row;
}

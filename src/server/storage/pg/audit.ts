// The audit trail (docs/actions.md) on PostgreSQL: every action of a key, newest first.
import type pg from 'pg';
import { first, rows } from './db.js';
import type { AuditRow, Storage } from '../types.js';

type AuditStore = Pick<Storage, 'recordAudit' | 'auditEvents'>;

const COLUMNS = `id, at, key_name AS "keyName", action, check_id AS "checkId", target_id AS "targetId", details`;

export function createPgAuditStore(pool: pg.Pool): AuditStore {
  return {
    async recordAudit(accountId, e) {
      await pool.query(
        `INSERT INTO audit_events (id, account_id, at, key_name, action, check_id, target_id, details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          e.id,
          accountId,
          e.at,
          e.keyName,
          e.action,
          e.checkId ?? null,
          e.targetId ?? null,
          JSON.stringify(e.details),
        ],
      );
    },
    async auditEvents(accountId, q) {
      const params: unknown[] = [accountId];
      const where = ['account_id = $1'];
      const filter = (clause: string, value: string | number | undefined) => {
        if (value === undefined) return;
        params.push(value);
        where.push(`${clause} $${params.length}`);
      };
      filter('check_id =', q.checkId);
      filter('action =', q.action);
      filter('at >=', q.from);
      filter('at <=', q.to);
      const sql = `FROM audit_events WHERE ${where.join(' AND ')}`;
      const total = (await first<{ n: number }>(pool, `SELECT count(*) AS n ${sql}`, params))!.n;
      const found = await rows<AuditRow & { checkId: string | null; targetId: string | null }>(
        pool,
        `SELECT ${COLUMNS} ${sql} ORDER BY at DESC, seq DESC
         LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, q.limit, q.offset],
      );
      return { items: found.map(toAuditRow), total };
    },
  };
}

function toAuditRow(r: AuditRow & { checkId: string | null; targetId: string | null }): AuditRow {
  const { checkId, targetId, ...rest } = r;
  return {
    ...rest,
    ...(checkId !== null ? { checkId } : {}),
    ...(targetId !== null ? { targetId } : {}),
  };
}

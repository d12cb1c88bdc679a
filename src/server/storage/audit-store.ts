// The audit part of Storage (types.ts): every action of a key (docs/roles.md).
import type { AuditAction } from '../../api/schemas/actions.js';

/** One action of a key, as stored (the wire's AuditEvent with `at` in epoch ms). */
export interface AuditRow {
  id: string;
  at: number;
  keyName: string;
  action: AuditAction;
  checkId?: string | undefined;
  targetId?: string | undefined;
  details: Record<string, unknown>;
}

export interface AuditQuery {
  checkId?: string | undefined;
  action?: AuditAction | undefined;
  /** Epoch ms, inclusive. */
  from?: number | undefined;
  to?: number | undefined;
  offset: number;
  limit: number;
}

export interface AuditStore {
  /** Keeps one action of a key (the audit trail, docs/roles.md). */
  recordAudit(accountId: string, event: AuditRow): Promise<void>;
  /** The account's audit events, newest first (the order recorded breaks ties of `at`), paged. */
  auditEvents(accountId: string, q: AuditQuery): Promise<{ items: AuditRow[]; total: number }>;
}

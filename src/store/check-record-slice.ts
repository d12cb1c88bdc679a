// What the check view shows of the check's past beyond its results: the latest
// actions taken on it (the audit trail) and 30 days of daily availability.
// Each is kept with the check it is of: an answer for another check is not drawn.
import type { StateCreator } from 'zustand/vanilla';
import type { AuditEventList } from '../api/schemas/actions.js';
import type { CheckHistoryList } from '../api/schemas/index.js';
import type { ConsoleState } from './state.js';
import type { Remote } from './types.js';

/** The audit events the check view reads (the newest few). */
export const AUDIT_SIZE = 5;

export interface Of<T> {
  checkId: string | null;
  remote: Remote<T>;
}

export interface CheckRecordSlice {
  audit: Of<AuditEventList>;
  dailyHistory: Of<CheckHistoryList>;
  setAudit(checkId: string, remote: Remote<AuditEventList>): void;
  setDailyHistory(checkId: string, remote: Remote<CheckHistoryList>): void;
}

const idle = { checkId: null, remote: { state: 'idle' } } as const;

export const createCheckRecordSlice: StateCreator<ConsoleState, [], [], CheckRecordSlice> = (set) => ({
  audit: idle,
  dailyHistory: idle,
  setAudit: (checkId, remote) => set({ audit: { checkId, remote } }),
  setDailyHistory: (checkId, remote) => set({ dailyHistory: { checkId, remote } }),
});

/** The part of `of` that belongs to `checkId`, if any. */
export const remoteOf = <T>(of: Of<T>, checkId: string): Remote<T> | null =>
  of.checkId === checkId ? of.remote : null;

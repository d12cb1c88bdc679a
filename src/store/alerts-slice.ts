// Alerts in the console: the open check's delivery history, acknowledging its
// alert (asked, then sent, then confirmed), and a channel's test sent in place.
import type { StateCreator } from 'zustand/vanilla';
import type { AlertNotification, AlertNotificationList } from '../api/schemas/index.js';
import type { ConsoleState } from './state.js';
import { selectView } from './selectors.js';
import type { ErrorInfo, Remote } from './types.js';

export const ALERT_HISTORY_SIZE = 6;

interface AckAsk {
  alertId: string;
  checkId: string;
  checkName: string;
}
interface AckAnswer {
  checkId: string;
  message: string;
}
export type AckState =
  | { state: 'idle' }
  | ({ state: 'confirm' } & AckAsk)
  | ({ state: 'sending' } & AckAsk)
  | ({ state: 'done' } & AckAnswer)
  | ({ state: 'error' } & AckAnswer);

export type ChannelTest =
  { state: 'sending' } | { state: 'done'; outcome: AlertNotification } | { state: 'error'; error: ErrorInfo };

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export interface AlertsSlice {
  /** The delivery log of the check on screen, newest first. */
  alertHistory: Remote<AlertNotificationList>;
  alertHistoryCheckId: string | null;
  /** Bumped to fetch the history again at once (after an acknowledgement). */
  alertHistoryVersion: number;
  ack: AckState;
  channelTests: Record<number, ChannelTest>;
  setAlertHistory(checkId: string, r: Remote<AlertNotificationList>): void;
  /** `a` on a check: asks before acknowledging its open alert, or says why there is none. */
  askAcknowledge(): void;
  answerAcknowledge(yes: boolean): void;
  acknowledgeDone(outcome: Outcome<{ acknowledgedAt: string | null }>): void;
  /** `T` on the channels: sends the selected channel a test event. */
  testSelectedChannel(): void;
  channelTestDone(channelId: number, outcome: Outcome<AlertNotification>): void;
}

const clock = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(11, 19) : '?');

export const createAlertsSlice: StateCreator<ConsoleState, [], [], AlertsSlice> = (set, get) => ({
  alertHistory: { state: 'idle' },
  alertHistoryCheckId: null,
  alertHistoryVersion: 0,
  ack: { state: 'idle' },
  channelTests: {},
  setAlertHistory(checkId, r) {
    set({ alertHistory: r, alertHistoryCheckId: checkId });
  },
  askAcknowledge() {
    const view = selectView(get());
    const checkId = view.name === 'check' ? view.checkId : '';
    const check = get().checks[checkId];
    const alert = check?.currentAlert;
    if (!check || !alert) {
      set({
        ack: { state: 'done', checkId, message: 'nothing to acknowledge: this check has no open alert' },
      });
    } else if (alert.acknowledgedAt) {
      set({
        ack: { state: 'done', checkId, message: `already acknowledged at ${clock(alert.acknowledgedAt)}` },
      });
    } else {
      set({ ack: { state: 'confirm', alertId: alert.id, checkId, checkName: check.checkName } });
    }
  },
  answerAcknowledge(yes) {
    const ack = get().ack;
    if (ack.state !== 'confirm') return;
    set({ ack: yes ? { ...ack, state: 'sending' } : { state: 'idle' } });
  },
  acknowledgeDone(outcome) {
    const ack = get().ack;
    if (ack.state !== 'sending') return;
    const message = outcome.ok
      ? `alert acknowledged at ${clock(outcome.value.acknowledgedAt)}: its reminders stop`
      : `could not acknowledge: ${outcome.error.message}`;
    set({
      ack: outcome.ok
        ? { state: 'done', checkId: ack.checkId, message }
        : { state: 'error', checkId: ack.checkId, message },
      alertHistoryVersion: get().alertHistoryVersion + 1,
    });
    if (outcome.ok) markAcknowledged(get, ack.checkId, ack.alertId, outcome.value.acknowledgedAt);
  },
  testSelectedChannel() {
    const id = get().lists.channels.selectedId;
    if (id === null || get().channelTests[id]?.state === 'sending') return;
    set({ channelTests: { ...get().channelTests, [id]: { state: 'sending' } } });
  },
  channelTestDone(channelId, outcome) {
    const test: ChannelTest = outcome.ok
      ? { state: 'done', outcome: outcome.value }
      : { state: 'error', error: outcome.error };
    set({ channelTests: { ...get().channelTests, [channelId]: test } });
    // The list's last delivery and failure count move with it.
    get().reloadList('channels');
  },
});

/**
 * The service's answer applied at once: the alert line said "not acknowledged"
 * under "alert acknowledged at …" until the next poll of the statuses.
 */
function markAcknowledged(get: () => ConsoleState, checkId: string, alertId: string, at: string | null) {
  const s = get();
  const check = s.checks[checkId];
  const alert = check?.currentAlert;
  if (!check || !alert || alert.id !== alertId || alert.acknowledgedAt) return;
  const acknowledgedAt = at ?? new Date().toISOString();
  const patched = { ...check, currentAlert: { ...alert, acknowledgedAt } };
  s.applyStatusChanges({ changed: [patched], removed: [], summary: s.summary }, s.statusesAt ?? Date.now());
}

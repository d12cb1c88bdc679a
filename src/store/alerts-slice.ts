// Alerts in the console: the open check's delivery history, acknowledging its
// alert (asked, then sent, then confirmed), and a channel's test sent in place.
import type { StateCreator } from 'zustand/vanilla';
import type { ConsoleState, ChannelTest, AlertsSlice } from './state.js';
import { selectView } from './selectors.js';

export type { AckState, ChannelTest, Outcome, AlertsSlice } from './state.js';

export const ALERT_HISTORY_SIZE = 6;

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

// Alerts: the open check's delivery history while it is on screen, and the
// actions a person takes (acknowledge an alert, test a channel, set a channel's
// grouping window). An action runs once and is never retried by itself: its
// outcome goes back to the screen.
import { ALERT_HISTORY_SIZE } from '../alerts-slice.js';
import type { ConsoleState } from '../state.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';

const openCheck = (s: ConsoleState) => {
  const view = selectView(s);
  return view.name === 'check' ? view.checkId : null;
};

export const alertHistoryFeed: Feed = {
  key: 'alert-history',
  active: (s) => openCheck(s) !== null,
  target: (s) => `${openCheck(s)}|${s.alertHistoryVersion}`,
  async run({ client, store, signal, now }) {
    const checkId = openCheck(store.getState());
    if (checkId === null) return;
    const previous = store.getState().alertHistory;
    try {
      const list = await client.alertNotifications({ checkId, limit: ALERT_HISTORY_SIZE }, { signal });
      store.getState().setAlertHistory(checkId, { state: 'ok', data: list, at: now() });
    } catch (error) {
      const data = previous.state === 'ok' || previous.state === 'error' ? previous.data : undefined;
      if (!signal.aborted)
        store.getState().setAlertHistory(checkId, { state: 'error', error: toErrorInfo(error), data });
      throw error;
    }
  },
};

export const acknowledgeFeed: Feed = {
  key: 'acknowledge',
  active: (s) => s.ack.state === 'sending',
  ignoresPause: true,
  async run({ client, store, signal }) {
    const ack = store.getState().ack;
    if (ack.state !== 'sending') return;
    try {
      const alert = await client.acknowledgeAlert(ack.alertId, { signal });
      store.getState().acknowledgeDone({ ok: true, value: alert });
    } catch (error) {
      if (!signal.aborted) store.getState().acknowledgeDone({ ok: false, error: toErrorInfo(error) });
    }
  },
};

const testing = (s: ConsoleState) =>
  Object.entries(s.channelTests).find(([, t]) => t.state === 'sending')?.[0];

export const channelTestFeed: Feed = {
  key: 'channel-test',
  active: (s) => testing(s) !== undefined,
  target: (s) => testing(s) ?? '',
  ignoresPause: true,
  async run({ client, store, signal }) {
    const id = Number(testing(store.getState()));
    if (!Number.isInteger(id)) return;
    try {
      const outcome = await client.testAlertChannel(id, { signal });
      store.getState().channelTestDone(id, { ok: true, value: outcome });
    } catch (error) {
      if (!signal.aborted) store.getState().channelTestDone(id, { ok: false, error: toErrorInfo(error) });
    }
  },
};

export const channelGroupingFeed: Feed = {
  key: 'channel-grouping',
  active: (s) => s.grouping.state === 'sending',
  ignoresPause: true,
  async run({ client, store, signal }) {
    const g = store.getState().grouping;
    if (g.state !== 'sending') return;
    try {
      const value = await client.setChannelGrouping(
        g.channelId,
        { groupWindowSeconds: g.seconds },
        { signal },
      );
      store.getState().groupingDone({ ok: true, value });
    } catch (error) {
      if (!signal.aborted) store.getState().groupingDone({ ok: false, error: toErrorInfo(error) });
    }
  },
};

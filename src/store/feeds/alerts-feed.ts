// Alerts: the open check's delivery history while it is on screen, and the
// actions a person takes (acknowledge an alert, test a channel, set a channel's
// grouping window). An action runs once and is never retried by itself: its
// outcome goes back to the screen.
import { ALERT_HISTORY_SIZE } from '../alerts-slice.js';
import type { ConsoleState } from '../state.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';
import { actionFeed } from './action-feed.js';

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

export const acknowledgeFeed: Feed = actionFeed({
  key: 'acknowledge',
  pending: (s) => (s.ack.state === 'sending' ? s.ack : undefined),
  act: (client, ack, signal) => client.acknowledgeAlert(ack.alertId, { signal }),
  done: (s, outcome) => s.acknowledgeDone(outcome),
});

const testing = (s: ConsoleState) =>
  Object.entries(s.channelTests).find(([, t]) => t.state === 'sending')?.[0];

export const channelTestFeed: Feed = actionFeed({
  key: 'channel-test',
  pending: (s) => {
    const id = testing(s);
    return id === undefined ? undefined : Number(id);
  },
  target: (s) => testing(s) ?? '',
  act: (client, id, signal) => client.testAlertChannel(id, { signal }),
  done: (s, outcome, id) => s.channelTestDone(id, outcome),
});

export const channelGroupingFeed: Feed = actionFeed({
  key: 'channel-grouping',
  pending: (s) => (s.grouping.state === 'sending' ? s.grouping : undefined),
  act: (client, g, signal) =>
    client.setChannelGrouping(g.channelId, { groupWindowSeconds: g.seconds }, { signal }),
  done: (s, outcome) => s.groupingDone(outcome),
});

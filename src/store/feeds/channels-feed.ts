// Alert channels: the list while it (or the form) is on screen, and the POST of
// the form. A POST runs once per submit and is never retried by itself: its
// outcome, good or bad, goes back to the form.
import { isApiError } from '../../api/errors.js';
import { parsedBody } from '../channel-form.js';
import { CHANNELS_PAGE_SIZE } from '../channels-slice.js';
import type { ConsoleState } from '../create-store.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';

const channelsTarget = (s: ConsoleState) => `${s.channelsPage}|${s.channelsVersion}`;

export const channelsFeed: Feed = {
  key: 'channels',
  active: (s) => ['channels', 'channel-form'].includes(selectView(s).name),
  target: (s) => channelsTarget(s),
  async run({ client, store, signal }) {
    const asked = channelsTarget(store.getState());
    const previous = store.getState().channels;
    // An answer to an older question (another page, or the list before a create) is dropped:
    // the poller runs again for the new one, and the selection must not jump meanwhile.
    const current = () => channelsTarget(store.getState()) === asked;
    try {
      const list = await client.alertChannels(
        { page: store.getState().channelsPage, limit: CHANNELS_PAGE_SIZE },
        { signal },
      );
      if (current()) store.getState().setChannels({ state: 'ok', data: list, at: Date.now() });
    } catch (error) {
      const data = previous.state === 'ok' || previous.state === 'error' ? previous.data : undefined;
      if (!signal.aborted && current())
        store.getState().setChannels({ state: 'error', error: toErrorInfo(error), data });
      throw error;
    }
  },
};

export const channelSubmitFeed: Feed = {
  key: 'channel-submit',
  active: (s) => s.form.submitting,
  ignoresPause: true,
  async run({ client, store, signal }) {
    const body = parsedBody(store.getState().form);
    if (!body)
      return store
        .getState()
        .formDone({ ok: false, error: { kind: 'unknown', message: 'the form is not valid' } });
    try {
      const channel = await client.createAlertChannel(body, { signal });
      store.getState().formDone({ ok: true, channel });
    } catch (error) {
      if (signal.aborted) return;
      store.getState().formDone({
        ok: false,
        status: isApiError(error) ? error.status : undefined,
        error: toErrorInfo(error),
        details: isApiError(error) ? error.details : undefined,
      });
    }
  },
};

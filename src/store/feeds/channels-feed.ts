// Alert channels: the list while it (or the form) is on screen, and the POST of
// the form. A POST runs once per submit and is never retried by itself: its
// outcome, good or bad, goes back to the form.
import { isApiError } from '../../api/errors.js';
import { parsedBody } from '../channel-form.js';
import { CHANNELS_PAGE_SIZE } from '../channels-slice.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';
import { pagedListFeed } from './paged-list-feed.js';

export const channelsFeed: Feed = pagedListFeed({
  key: 'channels',
  list: 'channels',
  active: (s) => ['channels', 'channel-form'].includes(selectView(s).name),
  fetch: (client, { page }, signal) => client.alertChannels({ page, limit: CHANNELS_PAGE_SIZE }, { signal }),
});

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

// Alert channels: the list while it (or the form) is on screen, and the POST of
// the form (or, editing a channel's subscriptions, its PUT). A write runs once per
// submit and is never retried by itself: its outcome, good or bad, goes back to the form.
import { isApiError } from '../../api/errors.js';
import type { MonitoringClient } from '../../api/client.js';
import { changedSince, parsedBody, subscriptionsBody, type ChannelForm } from '../channel-form.js';
import { CHANNELS_PAGE_SIZE } from '../channels-slice.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';
import type { SubmitOutcome } from '../state.js';
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
    try {
      store.getState().formDone(await write(client, store.getState().form, signal));
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

/**
 * The form's write: an edit's PUT of what the channel serves, or a new channel's POST.
 * A PUT replaces the whole set, so an edit first reads it again: a change someone else
 * saved since the form opened is shown, not overwritten unseen.
 */
async function write(
  client: MonitoringClient,
  form: ChannelForm,
  signal: AbortSignal,
): Promise<SubmitOutcome> {
  const put = subscriptionsBody(form);
  if (form.edit && put) {
    const now = await client.subscriptions(form.edit.channelId, { signal });
    if (changedSince(form.edit, now))
      return { ok: false, changed: now, error: { kind: 'unknown', message: 'changed meanwhile' } };
    return { ok: true, subscriptions: await client.setSubscriptions(form.edit.channelId, put, { signal }) };
  }
  const body = parsedBody(form);
  if (!body) return { ok: false, error: { kind: 'unknown', message: 'the form is not valid' } };
  return { ok: true, channel: await client.createAlertChannel(body, { signal }) };
}

// The client's calls of alert channels (spec 4.5 and the channel endpoints docs/alerts.md
// adds): the list, a new channel, its subscriptions, its grouping window, and a test.
import {
  AlertChannelListSchema,
  AlertChannelSchema,
  AlertNotificationSchema,
  ChannelGroupingSchema,
  SubscriptionsSchema,
  type AlertChannel,
  type AlertChannelCreateBody,
  type AlertChannelList,
  type AlertChannelsQuery,
  type AlertNotification,
  type ChannelGrouping,
  type ChannelGroupingBody,
  type Subscriptions,
} from './schemas/index.js';
import type { Call, CallOptions } from './request.js';

const channelPath = (id: number, what: string) =>
  `/v1/alert-channels/${encodeURIComponent(String(id))}/${what}`;
// An answer may grow keys: read it loosely, unlike the strict body we send.
const SubscriptionsAnswer = SubscriptionsSchema.loose();

export function channelCalls(call: Call) {
  return {
    alertChannels: (query: AlertChannelsQuery = {}, opts?: CallOptions): Promise<AlertChannelList> =>
      call(
        { method: 'GET', path: '/v1/alert-channels', query, auth: true, reuse: true },
        AlertChannelListSchema,
        opts,
      ),
    createAlertChannel: (body: AlertChannelCreateBody, opts?: CallOptions): Promise<AlertChannel> =>
      call({ method: 'POST', path: '/v1/alert-channels', body, auth: true }, AlertChannelSchema, opts),
    subscriptions: (channelId: number, opts?: CallOptions): Promise<Subscriptions> =>
      call(
        { method: 'GET', path: channelPath(channelId, 'subscriptions'), auth: true },
        SubscriptionsAnswer,
        opts,
      ),
    setSubscriptions: (channelId: number, body: Subscriptions, opts?: CallOptions): Promise<Subscriptions> =>
      call(
        { method: 'PUT', path: channelPath(channelId, 'subscriptions'), body, auth: true },
        SubscriptionsAnswer,
        opts,
      ),
    /**
     * Sets a channel's grouping window (role `admin`; null: its type's default). Sent again
     * only after a 429 (refused before anything was done): each change is an audit event.
     */
    setChannelGrouping: (
      channelId: number,
      body: ChannelGroupingBody,
      opts?: CallOptions,
    ): Promise<ChannelGrouping> =>
      call(
        { method: 'PUT', path: channelPath(channelId, 'grouping'), body, auth: true, retry: 'refused' },
        ChannelGroupingSchema,
        opts,
      ),
    /** Sends a `test` event now; the answer is the delivery's record, sent or failed. */
    testAlertChannel: (channelId: number, opts?: CallOptions): Promise<AlertNotification> =>
      call(
        { method: 'POST', path: channelPath(channelId, 'test'), auth: true },
        AlertNotificationSchema,
        opts,
      ),
  };
}

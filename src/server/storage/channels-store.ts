// The alert channels part of Storage (types.ts): the channels, with their
// subscriptions and signing secrets (docs/alerts.md).
import type { AlertChannel, AlertChannelCreate, Subscriptions } from '../../api/schemas/index.js';

/** What createChannel stores: the POST body, what it serves, and a WEBHOOK's signing secret. */
export type NewChannel = AlertChannelCreate & {
  subscriptions?: Subscriptions | undefined;
  signingSecret?: string | undefined;
  groupWindowSeconds?: number | undefined;
};

/** `channel` is the wire record (secret masked); `signingSecret` is whole, for the POST answer only. */
export type CreateChannelOutcome =
  | { ok: true; channel: AlertChannel; signingSecret: string | null }
  | { ok: false; reason: 'limit'; limit: number };

/** A channel as the dispatcher needs it: its config and secret whole. */
export interface StoredChannel {
  id: number;
  accountId: string;
  type: AlertChannel['type'];
  name: string;
  config: Record<string, unknown>;
  signingSecret: string | null;
  /** docs/alerts.md, "Grouping per channel": null is its type's default (alerting/grouping.ts). */
  groupWindowSeconds?: number | null | undefined;
}

export interface ChannelStore {
  createChannel(
    accountId: string,
    body: NewChannel,
    limit: number,
    now: number,
  ): Promise<CreateChannelOutcome>;
  listChannels(
    accountId: string,
    offset: number,
    limit: number,
  ): Promise<{ items: AlertChannel[]; total: number }>;
  countChannels(accountId: string): Promise<number>;
  /** Every channel of every account (the start-up check of transports). */
  allChannels(): Promise<StoredChannel[]>;
  channel(accountId: string, channelId: number): Promise<StoredChannel | null>;
  /** Null when the account has no such channel. */
  subscriptions(accountId: string, channelId: number): Promise<Subscriptions | null>;
  setSubscriptions(accountId: string, channelId: number, subscriptions: Subscriptions): Promise<boolean>;
  /** Sets the grouping window (null: the type's default); false when the account has no such channel. */
  setGroupWindow(accountId: string, channelId: number, seconds: number | null, now: number): Promise<boolean>;
  /** Channels subscribed to the check, directly or through its group. */
  subscribedChannels(
    accountId: string,
    checkId: string,
    groupId: string | undefined,
  ): Promise<StoredChannel[]>;
}

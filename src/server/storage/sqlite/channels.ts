// Alert channels and what they are subscribed to.
import type Database from 'better-sqlite3';
import type { AlertChannel, Subscriptions } from '../../../api/schemas/index.js';
import { maskSecret } from '../../../domain/mask.js';
import type { CreateChannelOutcome, NewChannel, StoredChannel } from '../types.js';
import { noSubscriptions, subscriptionRows, subscriptionsOf } from '../subscription-rows.js';

interface ChannelRow {
  id: number;
  account_id: string;
  type: AlertChannel['type'];
  name: string;
  config: string;
  created_at: number;
  updated_at: number;
  signing_secret: string | null;
  group_window_seconds: number | null;
}

const toStored = (r: ChannelRow): StoredChannel => ({
  id: r.id,
  accountId: r.account_id,
  type: r.type,
  name: r.name,
  config: JSON.parse(r.config) as Record<string, unknown>,
  signingSecret: r.signing_secret,
  groupWindowSeconds: r.group_window_seconds,
});

export function createChannelStore(db: Database.Database) {
  const count = db.prepare('SELECT count(*) AS n FROM channels WHERE account_id = ?');
  const insertChannel = db.prepare(
    `INSERT INTO channels (account_id, type, name, config, created_at, updated_at, signing_secret,
       group_window_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare('SELECT * FROM channels WHERE id = ? AND account_id = ?');
  const setWindow = db.prepare(
    'UPDATE channels SET group_window_seconds = ?, updated_at = ? WHERE id = ? AND account_id = ?',
  );
  const all = db.prepare('SELECT * FROM channels ORDER BY id');
  const page = db.prepare('SELECT * FROM channels WHERE account_id = ? ORDER BY id LIMIT ? OFFSET ?');
  const subsOf = db.prepare(
    'SELECT kind, target_id AS target FROM channel_subscriptions WHERE channel_id = ? ORDER BY kind, target_id',
  );
  const clearSubs = db.prepare('DELETE FROM channel_subscriptions WHERE channel_id = ?');
  const insertSub = db.prepare(
    'INSERT OR IGNORE INTO channel_subscriptions (channel_id, kind, target_id) VALUES (?, ?, ?)',
  );
  const subscribed = db.prepare(
    `SELECT DISTINCT c.* FROM channels c JOIN channel_subscriptions s ON s.channel_id = c.id
     WHERE c.account_id = ? AND ((s.kind = 'check' AND s.target_id = ?) OR (s.kind = 'group' AND s.target_id = ?))
     ORDER BY c.id`,
  );

  const readSubs = (channelId: number): Subscriptions =>
    subscriptionsOf(subsOf.all(channelId) as Array<{ kind: string; target: string }>);
  const writeSubs = (channelId: number, subs: Subscriptions) => {
    clearSubs.run(channelId);
    for (const { kind, target } of subscriptionRows(subs)) insertSub.run(channelId, kind, target);
  };
  const toChannel = (r: ChannelRow): AlertChannel => {
    const channel: AlertChannel = {
      id: r.id,
      type: r.type,
      name: r.name,
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
      config: JSON.parse(r.config) as Record<string, unknown>,
      subscriptions: readSubs(r.id),
    };
    if (r.signing_secret !== null) channel.signingSecret = maskSecret(r.signing_secret);
    if (r.group_window_seconds !== null) channel.groupWindowSeconds = r.group_window_seconds;
    return channel;
  };

  // The count and the insert in one immediate transaction: concurrent POSTs at
  // the limit cannot both see room for one more.
  const create = db.transaction(
    (accountId: string, body: NewChannel, limit: number, now: number): CreateChannelOutcome => {
      const { n } = count.get(accountId) as { n: number };
      if (n >= limit) return { ok: false, reason: 'limit', limit };
      const secret = body.signingSecret ?? null;
      const info = insertChannel.run(
        accountId,
        body.type,
        body.name,
        JSON.stringify(body.config),
        now,
        now,
        secret,
        body.groupWindowSeconds ?? null,
      );
      const id = Number(info.lastInsertRowid);
      writeSubs(id, body.subscriptions ?? noSubscriptions());
      return { ok: true, channel: toChannel(byId.get(id, accountId) as ChannelRow), signingSecret: secret };
    },
  );
  const replaceSubs = db.transaction((accountId: string, channelId: number, subs: Subscriptions) => {
    if (!byId.get(channelId, accountId)) return false;
    writeSubs(channelId, subs);
    return true;
  });

  return {
    createChannel: (accountId: string, body: NewChannel, limit: number, now: number) =>
      create.immediate(accountId, body, limit, now),
    listChannels(accountId: string, offset: number, limit: number) {
      const rows = page.all(accountId, limit, offset) as ChannelRow[];
      return { items: rows.map(toChannel), total: (count.get(accountId) as { n: number }).n };
    },
    countChannels: (accountId: string) => (count.get(accountId) as { n: number }).n,
    allChannels: () => (all.all() as ChannelRow[]).map(toStored),
    channel(accountId: string, channelId: number): StoredChannel | null {
      const row = byId.get(channelId, accountId) as ChannelRow | undefined;
      return row ? toStored(row) : null;
    },
    subscriptions: (accountId: string, channelId: number): Subscriptions | null =>
      byId.get(channelId, accountId) ? readSubs(channelId) : null,
    setSubscriptions: (accountId: string, channelId: number, subs: Subscriptions): boolean =>
      replaceSubs.immediate(accountId, channelId, subs),
    setGroupWindow: (accountId: string, channelId: number, seconds: number | null, now: number): boolean =>
      setWindow.run(seconds, now, channelId, accountId).changes > 0,
    subscribedChannels: (accountId: string, checkId: string, groupId: string | undefined) =>
      (subscribed.all(accountId, checkId, groupId ?? null) as ChannelRow[]).map(toStored),
  };
}

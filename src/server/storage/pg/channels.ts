// Alert channels and what they are subscribed to, on PostgreSQL.
import type pg from 'pg';
import type { AlertChannel, Subscriptions } from '../../../api/schemas/index.js';
import { maskSecret } from '../../../domain/mask.js';
import { first, rows, transaction, type Queryable } from './db.js';
import { noSubscriptions, subscriptionRows, subscriptionsOf } from '../subscription-rows.js';
import type { Storage, StoredChannel } from '../types.js';

interface ChannelRow {
  id: number;
  account_id: string;
  type: AlertChannel['type'];
  name: string;
  config: Record<string, unknown>;
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
  config: r.config,
  signingSecret: r.signing_secret,
  groupWindowSeconds: r.group_window_seconds,
});

const byId = (q: Queryable, accountId: string, channelId: number) =>
  first<ChannelRow>(q, 'SELECT * FROM channels WHERE id = $1 AND account_id = $2', [channelId, accountId]);

const count = async (q: Queryable, accountId: string) =>
  (await first<{ n: number }>(q, 'SELECT count(*) AS n FROM channels WHERE account_id = $1', [accountId]))!.n;

/** The subscriptions of each channel, in one query. */
async function readSubs(q: Queryable, channelIds: readonly number[]): Promise<Map<number, Subscriptions>> {
  const found = await rows<{ channel_id: number; kind: string; target: string }>(
    q,
    `SELECT channel_id, kind, target_id AS target FROM channel_subscriptions WHERE channel_id = ANY($1::int[])
     ORDER BY kind COLLATE "C", target_id COLLATE "C"`,
    [channelIds],
  );
  const byChannel = new Map<number, typeof found>(channelIds.map((id) => [id, []]));
  for (const r of found) byChannel.get(r.channel_id)?.push(r);
  return new Map([...byChannel].map(([id, of]) => [id, subscriptionsOf(of)]));
}

async function writeSubs(q: Queryable, channelId: number, subs: Subscriptions) {
  await q.query('DELETE FROM channel_subscriptions WHERE channel_id = $1', [channelId]);
  await q.query(
    `INSERT INTO channel_subscriptions (channel_id, kind, target_id)
     SELECT $1, kind, target FROM unnest($2::text[], $3::text[]) AS s (kind, target) ON CONFLICT DO NOTHING`,
    [channelId, subscriptionRows(subs).map((r) => r.kind), subscriptionRows(subs).map((r) => r.target)],
  );
}

async function toChannels(q: Queryable, found: readonly ChannelRow[]): Promise<AlertChannel[]> {
  const subs = await readSubs(
    q,
    found.map((r) => r.id),
  );
  return found.map((r) => {
    const channel: AlertChannel = {
      id: r.id,
      type: r.type,
      name: r.name,
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
      config: r.config,
      subscriptions: subs.get(r.id)!,
    };
    if (r.signing_secret !== null) channel.signingSecret = maskSecret(r.signing_secret);
    if (r.group_window_seconds !== null) channel.groupWindowSeconds = r.group_window_seconds;
    return channel;
  });
}

type ChannelStore = Pick<
  Storage,
  | 'createChannel'
  | 'listChannels'
  | 'countChannels'
  | 'allChannels'
  | 'channel'
  | 'subscriptions'
  | 'setSubscriptions'
  | 'setGroupWindow'
  | 'subscribedChannels'
>;

export function createPgChannelStore(pool: pg.Pool): ChannelStore {
  return {
    // The count and the insert under the account's advisory lock: concurrent POSTs
    // at the limit (on any instance) cannot both see room for one more.
    createChannel: (accountId, body, limit, now) =>
      transaction(pool, async (c) => {
        await c.query("SELECT pg_advisory_xact_lock(hashtext('checkwall.channels:' || $1))", [accountId]);
        if ((await count(c, accountId)) >= limit) return { ok: false, reason: 'limit', limit };
        const secret = body.signingSecret ?? null;
        const row = (await first<ChannelRow>(
          c,
          `INSERT INTO channels (account_id, type, name, config, created_at, updated_at, signing_secret,
             group_window_seconds) VALUES ($1, $2, $3, $4, $5, $5, $6, $7) RETURNING *`,
          [
            accountId,
            body.type,
            body.name,
            JSON.stringify(body.config),
            now,
            secret,
            body.groupWindowSeconds ?? null,
          ],
        ))!;
        await writeSubs(c, row.id, body.subscriptions ?? noSubscriptions());
        const [channel] = await toChannels(c, [row]);
        return { ok: true, channel: channel!, signingSecret: secret };
      }),
    async listChannels(accountId, offset, limit) {
      const page = await rows<ChannelRow>(
        pool,
        'SELECT * FROM channels WHERE account_id = $1 ORDER BY id LIMIT $2 OFFSET $3',
        [accountId, limit, offset],
      );
      return { items: await toChannels(pool, page), total: await count(pool, accountId) };
    },
    countChannels: (accountId) => count(pool, accountId),
    allChannels: async () =>
      (await rows<ChannelRow>(pool, 'SELECT * FROM channels ORDER BY id')).map(toStored),
    async channel(accountId, channelId) {
      const row = await byId(pool, accountId, channelId);
      return row ? toStored(row) : null;
    },
    async subscriptions(accountId, channelId) {
      if (!(await byId(pool, accountId, channelId))) return null;
      return (await readSubs(pool, [channelId])).get(channelId)!;
    },
    setSubscriptions: (accountId, channelId, subs) =>
      transaction(pool, async (c) => {
        const found = await first(c, 'SELECT id FROM channels WHERE id = $1 AND account_id = $2 FOR UPDATE', [
          channelId,
          accountId,
        ]);
        if (!found) return false;
        await writeSubs(c, channelId, subs);
        return true;
      }),
    async setGroupWindow(accountId, channelId, seconds, now) {
      const done = await pool.query(
        'UPDATE channels SET group_window_seconds = $1, updated_at = $2 WHERE id = $3 AND account_id = $4',
        [seconds, now, channelId, accountId],
      );
      return (done.rowCount ?? 0) > 0;
    },
    async subscribedChannels(accountId, checkId, groupId) {
      const found = await rows<ChannelRow>(
        pool,
        `SELECT c.* FROM channels c WHERE c.account_id = $1 AND EXISTS (
           SELECT 1 FROM channel_subscriptions s WHERE s.channel_id = c.id
             AND ((s.kind = 'check' AND s.target_id = $2) OR (s.kind = 'group' AND s.target_id = $3)))
         ORDER BY c.id`,
        [accountId, checkId, groupId ?? null],
      );
      return found.map(toStored);
    },
  };
}

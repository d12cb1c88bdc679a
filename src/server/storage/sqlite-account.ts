// Alert channels, heartbeat pings, incidents and alert events.
import type Database from 'better-sqlite3';
import type { AlertChannel, AlertChannelCreate } from '../../api/schemas.js';
import type { AlertCounts, CreateChannelOutcome, IncidentRow } from './types.js';

interface ChannelRow {
  id: number;
  type: AlertChannel['type'];
  name: string;
  config: string;
  created_at: number;
  updated_at: number;
}

const toChannel = (r: ChannelRow): AlertChannel => ({
  id: r.id,
  type: r.type,
  name: r.name,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
  config: JSON.parse(r.config) as Record<string, unknown>,
});

export function createAccountStore(db: Database.Database) {
  const count = db.prepare('SELECT count(*) AS n FROM channels WHERE account_id = ?');
  const insertChannel = db.prepare(
    'INSERT INTO channels (account_id, type, name, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const byId = db.prepare('SELECT * FROM channels WHERE id = ?');
  const page = db.prepare('SELECT * FROM channels WHERE account_id = ? ORDER BY id LIMIT ? OFFSET ?');
  const upsertPing = db.prepare(
    'INSERT INTO pings (account_id, check_id, at) VALUES (?, ?, ?) ON CONFLICT (account_id, check_id) DO UPDATE SET at = excluded.at',
  );
  const getPing = db.prepare('SELECT at FROM pings WHERE account_id = ? AND check_id = ?');
  const insertIncident = db.prepare(
    'INSERT INTO incidents (id, account_id, check_id, severity, title, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, NULL)',
  );
  const endIncident = db.prepare(
    'UPDATE incidents SET ended_at = ? WHERE account_id = ? AND check_id = ? AND ended_at IS NULL',
  );
  const openIncident = db.prepare(
    `SELECT id, check_id AS checkId, severity, title, started_at AS startedAt, ended_at AS endedAt
     FROM incidents WHERE account_id = ? AND check_id = ? AND ended_at IS NULL ORDER BY started_at DESC LIMIT 1`,
  );
  const insertAlert = db.prepare(
    'INSERT INTO alert_events (account_id, check_id, kind, at) VALUES (?, ?, ?, ?)',
  );
  const alertAgg = db.prepare(
    `SELECT count(*) AS total FROM alert_events WHERE account_id = ? AND check_id = ? AND kind = 'failing' AND at >= ?`,
  );

  // The count and the insert in one immediate transaction: concurrent POSTs at
  // the limit cannot both see room for one more.
  const create = db.transaction(
    (accountId: string, body: AlertChannelCreate, limit: number, now: number): CreateChannelOutcome => {
      const { n } = count.get(accountId) as { n: number };
      if (n >= limit) return { ok: false, reason: 'limit', limit };
      const info = insertChannel.run(accountId, body.type, body.name, JSON.stringify(body.config), now, now);
      return { ok: true, channel: toChannel(byId.get(info.lastInsertRowid) as ChannelRow) };
    },
  );

  return {
    createChannel: (accountId: string, body: AlertChannelCreate, limit: number, now: number) =>
      create.immediate(accountId, body, limit, now),
    listChannels(accountId: string, offset: number, limit: number) {
      const rows = page.all(accountId, limit, offset) as ChannelRow[];
      return { items: rows.map(toChannel), total: (count.get(accountId) as { n: number }).n };
    },
    countChannels: (accountId: string) => (count.get(accountId) as { n: number }).n,

    recordPing: (accountId: string, checkId: string, at: number) =>
      void upsertPing.run(accountId, checkId, at),
    lastPing: (accountId: string, checkId: string) =>
      (getPing.get(accountId, checkId) as { at: number } | undefined)?.at ?? null,

    openIncident: (accountId: string, i: IncidentRow) =>
      void insertIncident.run(i.id, accountId, i.checkId, i.severity, i.title, i.startedAt),
    closeIncident: (accountId: string, checkId: string, at: number) =>
      void endIncident.run(at, accountId, checkId),
    currentIncident: (accountId: string, checkId: string) =>
      (openIncident.get(accountId, checkId) as IncidentRow | undefined) ?? null,
    recordAlert: (accountId: string, checkId: string, kind: 'failing' | 'recovered', at: number) =>
      void insertAlert.run(accountId, checkId, kind, at),
    alertCounts(accountId: string, checkId: string, now: number): AlertCounts {
      // An alert is active while its incident is open; nobody acknowledges in this service.
      const active = openIncident.get(accountId, checkId) ? 1 : 0;
      const { total } = alertAgg.get(accountId, checkId, now - 86_400_000) as { total: number };
      return { active, acknowledged: 0, total24h: total };
    },
  };
}

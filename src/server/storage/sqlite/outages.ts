// Location outages (storage/outages-store.ts) on SQLite: one open per location, declared and
// ended with their pages in one transaction.
import type Database from 'better-sqlite3';
import type { Sync } from '../promised.js';
import type { NewNotification, OutageRow, Storage } from '../types.js';
import { NOTIFICATION_INSERT, notificationValues } from '../rows.js';

type OutageStore = Pick<Sync<Storage>, 'declareOutage' | 'endOutage' | 'liveOutages' | 'markOutageEndPaged'>;

interface Row {
  id: string;
  account_id: string;
  location_id: string;
  since: number;
  ended_at: number | null;
  no_runner: number;
  failing: number;
  total: number;
  end_paged: number;
  channels: string;
}

const toOutage = (r: Row): OutageRow => ({
  id: r.id,
  accountId: r.account_id,
  locationId: r.location_id,
  since: r.since,
  endedAt: r.ended_at,
  noRunner: r.no_runner === 1,
  failing: r.failing,
  total: r.total,
  endPaged: r.end_paged === 1,
  channels: JSON.parse(r.channels) as number[],
});

export function createOutageStore(db: Database.Database): OutageStore {
  const insert = db.prepare(
    `INSERT INTO location_outages (id, account_id, location_id, since, no_runner, failing, total, channels)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const end = db.prepare(
    'UPDATE location_outages SET ended_at = ? WHERE account_id = ? AND id = ? AND ended_at IS NULL',
  );
  const live = db.prepare('SELECT * FROM location_outages WHERE ended_at IS NULL OR end_paged = 0');
  const paged = db.prepare('UPDATE location_outages SET end_paged = 1 WHERE account_id = ? AND id = ?');
  const enqueue = db.prepare(`${NOTIFICATION_INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const write = (accountId: string, notifications: readonly NewNotification[], now: number) => {
    for (const n of notifications) enqueue.run(...notificationValues(accountId, n, now));
  };
  const declare = db.transaction((o: OutageRow, notifications: readonly NewNotification[], now: number) => {
    const values = [o.id, o.accountId, o.locationId, o.since, o.noRunner ? 1 : 0, o.failing, o.total];
    values.push(JSON.stringify(o.channels));
    if (insert.run(...values).changes === 0) return false;
    write(o.accountId, notifications, now);
    return true;
  });
  const close = db.transaction(
    (accountId: string, id: string, at: number, notifications: readonly NewNotification[]) => {
      if (end.run(at, accountId, id).changes === 0) return false;
      write(accountId, notifications, at);
      return true;
    },
  );
  return {
    declareOutage: (outage, notifications, now) => declare.immediate(outage, notifications, now),
    endOutage: (accountId, id, endedAt, notifications) =>
      close.immediate(accountId, id, endedAt, notifications),
    liveOutages: () => (live.all() as Row[]).map(toOutage),
    markOutageEndPaged(accountId, id) {
      paged.run(accountId, id);
    },
  };
}

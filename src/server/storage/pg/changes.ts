// Changes between service instances on one PostgreSQL database (docs/runners.md), over
// LISTEN/NOTIFY on the channel `checkwall_changes`. The payload is JSON:
//
//   { "origin": "<instance id>", "kind": "result", "accountId": "...", "checkId": "...", "result": {...} }
//       a result was stored (insertResult(s), completeRun); sent in the same
//       transaction, so it is heard only once the result is readable. `result`,
//       the stored result, is there when it fits the 8,000 bytes of a NOTIFY
//       (pg/results.ts): the others update that check's status from it alone
//   { "origin": "...", "kind": "alert", "accountId": "...", "checkId": "..." }
//       an alert opened, was reminded, resolved or acknowledged (applyAlertChange,
//       acknowledgeAlert), in the same transaction
//   { "origin": "...", "kind": "config", "version": "..." }
//       publishConfig(version): an instance reloaded its config; the others may too
//
// A listener gets { ...payload, fromSelf } (fromSelf: this storage instance sent it)
// and, after its connection dropped and came back, { kind: "resync", fromSelf: true }:
// notifications sent meanwhile are lost, so caches should be read anew.
// The listener is one dedicated client (not the pool's), reconnecting with backoff.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { CheckResult } from '../../../api/schemas/index.js';
import type { Queryable } from './db.js';

export const CHANGES_CHANNEL = 'checkwall_changes';

export type Change =
  | { kind: 'result'; accountId: string; checkId: string; result?: CheckResult }
  | { kind: 'alert'; accountId: string; checkId: string }
  | { kind: 'config'; version: string };
export type ChangeEvent = (Change | { kind: 'resync' }) & { fromSelf: boolean };
export type ChangeHandler = (event: ChangeEvent) => void;

export interface Changes {
  /** This storage instance's id, the `origin` of what it sends. */
  readonly origin: string;
  /** Resolves once LISTEN is in place (what is sent after that is heard); resolves to an unsubscribe. */
  listen(handler: ChangeHandler): Promise<() => void>;
  /** Tells every instance on the database (this one too) that the config changed. */
  publishConfig(version: string): Promise<void>;
}

/** The NOTIFY of one change; inside a transaction, it is sent at COMMIT. */
/**
 * The advisory-lock key space of instances: each holds (INSTANCE_LOCK, hashtext(origin))
 * on its listening session while it is connected (pg/alerts.ts frees a dead one's leases).
 */
export const INSTANCE_LOCK = 734_611_290;

export async function notifyChange(q: Queryable, origin: string, change: Change): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, JSON.stringify({ origin, ...change })]);
}

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 30_000;

export function createChanges(
  pool: pg.Pool,
  connect: (origin: string) => pg.Client,
): Changes & { close(): Promise<void> } {
  const origin = randomUUID();
  const handlers = new Set<ChangeHandler>();
  let client: pg.Client | undefined;
  let started: Promise<void> | undefined;
  let closed = false;
  let retryMs = RETRY_MIN_MS;
  let timer: NodeJS.Timeout | undefined;

  const emit = (event: ChangeEvent) => {
    for (const handler of handlers) handler(event);
  };
  const onNotification = (message: pg.Notification) => {
    if (message.channel !== CHANGES_CHANNEL || !message.payload) return;
    let parsed: Change & { origin?: string };
    try {
      parsed = JSON.parse(message.payload) as Change & { origin?: string };
    } catch {
      return; // not ours: someone else's NOTIFY on the channel
    }
    const { origin: from, ...change } = parsed;
    emit({ ...change, fromSelf: from === origin });
  };

  async function attach(): Promise<void> {
    const next = connect(origin);
    next.on('notification', onNotification);
    // 'error' then 'end' on a lost connection; either one schedules one reconnect.
    next.on('error', () => dropped(next));
    next.on('end', () => dropped(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
      await next.query('SELECT pg_advisory_lock($1, hashtext($2))', [INSTANCE_LOCK, origin]);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    client = next;
    retryMs = RETRY_MIN_MS;
  }

  function dropped(which: pg.Client) {
    if (closed || client !== which) return;
    client = undefined;
    void which.end().catch(() => undefined);
    reconnect();
  }

  function reconnect() {
    timer = setTimeout(() => {
      if (closed) return;
      attach().then(
        () => emit({ kind: 'resync', fromSelf: true }),
        () => {
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
          reconnect();
        },
      );
    }, retryMs);
    timer.unref();
  }

  return {
    origin,
    async listen(handler) {
      started ??= attach().catch((error: unknown) => {
        started = undefined; // the next listen tries again
        throw error;
      });
      await started;
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    publishConfig: (version) => notifyChange(pool, origin, { kind: 'config', version }),
    async close() {
      closed = true;
      clearTimeout(timer);
      handlers.clear();
      await client?.end().catch(() => undefined);
    },
  };
}

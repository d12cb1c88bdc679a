// Delivers the outbox in the background: claims due notifications with a lease,
// hands each to its channel's sender with a time limit, and records the outcome
// (sent; failed for good; or due again after a backoff or Retry-After). A few
// attempts per channel at once, so a channel that hangs holds only its own.
//
// It looks for due work when told (kick: a notification queued by this instance,
// an attempt finished) and when a retry it recorded falls due, on a timer set for
// that instant; a slow poll is the safety net for the rest (a lease run out, a
// killed peer's leases, rows another instance queued and could not send). Looking
// every 250 ms with nothing to do was most of an idle service's cost (BENCHMARKS.md,
// bench:probe).
import type { AlertPayload } from '../../api/schemas/index.js';
import { backoffDelay } from '../../domain/backoff.js';
import type { Clock, Timer } from '../../domain/clock.js';
import { deadline } from '../../domain/deadline.js';
import type { AttemptOutcome, NotificationRow, Storage, StoredChannel } from '../storage/types.js';
import { redactSecrets } from './redact.js';
import type { Senders } from './senders/index.js';
import type { Exchange, SendOutcome } from './senders/types.js';
import { MASK } from '../../domain/mask.js';
import { logFailure } from '../storage/observed.js';
import { crashPoint } from '../crash-point.js';
import { groupPayload, groupsOf } from './grouping.js';
import { createRetryWake } from './retry-wake.js';

export interface DeliveryPolicy {
  attemptTimeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

export interface DispatcherDeps {
  storage: Storage;
  senders: Senders;
  clock: Clock;
  policy: DeliveryPolicy;
  /** Secrets of the service's transports, kept out of every recorded error. */
  transportSecrets: readonly string[];
  /** After an attempt is recorded (the check's status shows undelivered alerts). */
  onFinished?: (row: NotificationRow) => Promise<void>;
  /** Each attempt's outcome as recorded: sent, failed for good, or pending again (/metrics). */
  onOutcome?: (status: AttemptOutcome['status']) => void;
}

const POLL_MS = 2_000;
// How often the leases of instances that are gone are looked for (Storage.releaseOrphanedLeases).
const ORPHANS_EVERY_MS = 2_000;
const BATCH = 16;
const PER_CHANNEL = 2;
// A claim runs out after this, longer than any attempt: the bound for a killed holder whose
// death nobody could see (its leases go at once otherwise: releaseOrphanedLeases).
const LEASE_MARGIN_MS = 20_000;
const MAX_RETRY_AFTER_MS = 3_600_000;
// At a stop, the messages under way have this long to finish and be recorded before they
// are cut: one cut short goes again at the next start, and a chat message, an e-mail or an
// SMS has no delivery id its reader can drop the second by. Well inside the 10 s a
// container runtime waits before it kills (docker stop's default).
export const STOP_GRACE_MS = 5_000;

export type Dispatcher = ReturnType<typeof createDispatcher>;

export function createDispatcher(deps: DispatcherDeps) {
  const { storage, policy } = deps;
  const leaseMs = policy.attemptTimeoutMs + LEASE_MARGIN_MS;
  const busy = new Map<number, number>();
  const running = new Set<Promise<void>>();
  // A stop first ends the claims (`stopping`), then cuts what is still under way (`cut`).
  const stopping = new AbortController();
  const cut = new AbortController();
  // A second stop waits for the first.
  let stopped: Promise<void> | undefined;
  let timer: Timer | undefined;
  const retries = createRetryWake(deps.clock, () => kick());
  let queued = false;
  // One claim at a time: the busy channels it skips are counted before it.
  let claiming: Promise<void> | undefined;
  let again = false;
  let orphansAt = -Infinity;

  /** The leases of a killed instance (this one's last start, or a peer) go now, not when they run out. */
  async function claim(full: number[]) {
    if (deps.clock.now() - orphansAt >= ORPHANS_EVERY_MS) {
      orphansAt = deps.clock.now();
      await storage.releaseOrphanedLeases();
    }
    return storage.claimNotifications(deps.clock.now(), leaseMs, BATCH, full);
  }

  function tick() {
    queued = false;
    if (stopping.signal.aborted) return;
    if (claiming) {
      again = true;
      return;
    }
    const full = [...busy].filter(([, n]) => n >= PER_CHANNEL).map(([id]) => id);
    claiming = claim(full)
      .then((rows) => groupsOf(rows).forEach(track))
      .catch((error: unknown) => logFailure('checkwall: claiming notifications failed', error))
      .finally(() => {
        claiming = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  /** One message under way: a notification, or a group of a channel's (grouping.ts). */
  function track(rows: NotificationRow[]) {
    const row = rows[0]!;
    busy.set(row.channelId, (busy.get(row.channelId) ?? 0) + 1);
    const done = attempt(rows)
      .then(() => undefined)
      // A database that fails mid-attempt (reading the channel, recording the outcome) leaves
      // the rows to their lease, claimed again when it runs out; left unhandled, the rejection
      // would end the service (Node's default).
      .catch((error: unknown) => logFailure('checkwall: delivering a notification failed', error))
      .finally(() => {
        const left = (busy.get(row.channelId) ?? 1) - 1;
        if (left <= 0) busy.delete(row.channelId);
        else busy.set(row.channelId, left);
        running.delete(done);
        kick();
      });
    running.add(done);
  }

  /**
   * One attempt of one message, recorded on each of its notifications (a group's: grouping.ts);
   * what went over the wire, its secrets masked (a channel test shows it).
   */
  async function attempt(rows: NotificationRow[]): Promise<Exchange | null> {
    const head = rows[0]!;
    const channel = await storage.channel(head.accountId, head.channelId);
    const sent: SendOutcome = channel
      ? await send({ ...head, payload: groupPayload(rows) }, channel)
      : { ok: false, permanent: true, error: 'the channel is gone' };
    const secrets = [...deps.transportSecrets, ...(channel ? channelSecrets(channel) : [])];
    // One outcome for the message, the same on each of its rows: a group refused is due again
    // at one instant, and is one message again (a backoff drawn per row split it into many).
    const cutShort = cut.signal.aborted && !sent.ok;
    const recorded: AttemptOutcome = cutShort
      ? // Cut short by a stop: due again at the next start, as if never tried.
        { status: 'pending', error: sent.error, nextAttemptAt: deps.clock.now() }
      : outcome(head, sent, secrets);
    // Every row recorded before anything is told: a listener failing must not leave a row of a
    // sent message leased, to go again when its lease runs out.
    for (const row of rows) await storage.finishAttempt(row.id, recorded, deps.clock.now());
    if (!cutShort && recorded.status === 'pending') retries.at(recorded.nextAttemptAt);
    for (const row of cutShort ? [] : rows) {
      deps.onOutcome?.(recorded.status);
      await deps.onFinished?.(row);
    }
    return sent.exchange ? maskExchange(sent.exchange, secrets) : null;
  }

  async function send(row: NotificationRow, channel: StoredChannel): Promise<SendOutcome> {
    // The attempt's clock, cut short by a stop (domain/deadline.ts: not AbortSignal.any, whose
    // timeout a collection could take, leaving an attempt to a silent receiver unbounded).
    const attemptClock = deadline(cut.signal, policy.attemptTimeoutMs);
    // A row queued by an older version has no runbook or links: read as none.
    const { runbook = null, links = [] } = row.payload as Partial<AlertPayload>;
    const payload = { ...row.payload, runbook, links, deliveryId: row.id } as AlertPayload;
    try {
      const sent = await deps.senders.byType[channel.type](
        { id: row.id, payload, channel },
        attemptClock.signal,
      );
      // Delivered, not yet recorded: the next start sends it again, with the same delivery id.
      crashPoint('delivery in flight');
      return sent;
    } catch (error) {
      return { ok: false, permanent: false, error: `unexpected: ${(error as Error).name}` };
    } finally {
      attemptClock.done();
    }
  }

  function outcome(row: NotificationRow, sent: SendOutcome, secrets: readonly string[]): AttemptOutcome {
    if (sent.ok) return { status: 'sent' };
    const error = redactSecrets(sent.error, secrets);
    // A test is answered at once: one attempt, whatever it met.
    if (sent.permanent || row.event === 'test') return { status: 'failed', error };
    if (row.attempts >= policy.maxAttempts)
      return { status: 'failed', error: `${error} (gave up after ${row.attempts} attempts)` };
    const wait =
      sent.retryAfterMs !== undefined
        ? Math.min(sent.retryAfterMs, MAX_RETRY_AFTER_MS)
        : backoffDelay(row.attempts - 1, policy.retryBaseMs, policy.retryMaxMs);
    return { status: 'pending', error, nextAttemptAt: deps.clock.now() + wait };
  }

  /** Looks for due work at once (after new notifications or a finished attempt). */
  function kick() {
    if (queued || stopping.signal.aborted) return;
    queued = true;
    setImmediate(tick);
  }

  return {
    start() {
      timer = deps.clock.setInterval(tick, POLL_MS).unref();
      kick();
    },
    kick,
    /** Delivers one queued notification now, whatever else is under way, and gives its record. */
    async deliverNow(id: string): Promise<{ row: NotificationRow | null; exchange: Exchange | null }> {
      const claimed = await storage.claimNotification(id, deps.clock.now(), leaseMs);
      const exchange = claimed ? await attempt([claimed]) : null;
      return { row: await storage.notification(id), exchange };
    },
    /** Messages under way now (what a stop would wait for). */
    underWay: () => running.size,
    /** Claims nothing more; what is under way has STOP_GRACE_MS to finish, and is then cut. */
    stop: () => (stopped ??= stop()),
  };

  async function stop() {
    deps.clock.clearInterval(timer);
    retries.stop();
    stopping.abort(new Error('the service is stopping'));
    if (claiming || running.size > 0) {
      let grace: Timer | undefined;
      const graceOver = new Promise<void>(
        (resolve) => (grace = deps.clock.setTimeout(resolve, STOP_GRACE_MS)),
      );
      // The rows a claim under way takes are under way too; a claim that hangs (its
      // database gone) holds the stop no longer than the grace.
      await Promise.race([claiming, graceOver]);
      await Promise.race([Promise.allSettled([...running]), graceOver]);
      deps.clock.clearTimeout(grace);
    }
    cut.abort(new Error('the service is stopping'));
    await Promise.allSettled([...running]);
  }
}

/** What a channel's config holds that must not reach a log: header and query values, credentials, a URL's path. */
function channelSecrets(channel: StoredChannel): string[] {
  const config = channel.config as {
    url?: string;
    headers?: Array<{ value: string }>;
    queryParameters?: Array<{ value: string }>;
  };
  const out = [
    ...(config.headers ?? []).map((h) => h.value),
    ...(config.queryParameters ?? []).map((q) => q.value),
    // A dialect's credential (a bot token, a routing or API key) by its field's name.
    ...Object.entries(channel.config).flatMap(([key, value]) =>
      typeof value === 'string' && /token|key|secret|pass/i.test(key) ? [value] : [],
    ),
  ];
  if (config.url) out.push(config.url, ...urlParts(config.url));
  // A provider's key (dialects/): PagerDuty's routing key, Opsgenie's API key, a chat bot's token.
  for (const key of ['routingKey', 'apiKey', 'botToken']) {
    const value = (channel.config as Record<string, unknown>)[key];
    if (typeof value === 'string') out.push(value);
  }
  if (channel.signingSecret) out.push(channel.signingSecret);
  return out;
}

/**
 * The parts of a channel's URL a receiver may echo alone, each often the webhook's only key: its
 * path (a web framework's 404 says "Cannot POST /hooks/<token>"), with and without the query, and
 * each query value of 8 characters or more. A bare "/" is no secret.
 */
function urlParts(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const { pathname, search, searchParams, password } = parsed;
  // A short query value (`format=json`) is a setting, not a key: masking it would hide every
  // such word of the receiver's answer.
  const values = [...searchParams.values()].filter((value) => value.length >= 8);
  return [pathname + search, pathname, ...values, password].filter((part) => part.length > 1);
}

/** An exchange as a channel test shows it: every secret of the channel masked as the config is. */
function maskExchange(exchange: Exchange, secrets: readonly string[]): Exchange {
  const answer = exchange.answer && {
    ...exchange.answer,
    body: redactSecrets(exchange.answer.body, secrets, MASK),
  };
  return { sent: redactSecrets(exchange.sent, secrets, MASK), answer };
}

// Delivers the outbox in the background: claims due notifications with a lease,
// hands each to its channel's sender with a time limit, and records the outcome
// (sent; failed for good; or due again after a backoff or Retry-After). A few
// attempts per channel at once, so a channel that hangs holds only its own.
import type { AlertPayload } from '../../api/schemas/index.js';
import { backoffDelay } from '../../domain/backoff.js';
import type { Clock, Timer } from '../../domain/clock.js';
import type { AttemptOutcome, NotificationRow, Storage, StoredChannel } from '../storage/types.js';
import { redactSecrets } from './redact.js';
import type { Senders } from './senders/index.js';
import type { SendOutcome } from './senders/types.js';
import { logFailure } from '../storage/observed.js';

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

const TICK_MS = 250;
const BATCH = 16;
const PER_CHANNEL = 2;
// A killed service's claim runs out after this; longer than any attempt.
const LEASE_MARGIN_MS = 20_000;
const MAX_RETRY_AFTER_MS = 3_600_000;

export type Dispatcher = ReturnType<typeof createDispatcher>;

export function createDispatcher(deps: DispatcherDeps) {
  const { storage, policy } = deps;
  const leaseMs = policy.attemptTimeoutMs + LEASE_MARGIN_MS;
  const busy = new Map<number, number>();
  const running = new Set<Promise<void>>();
  const stopping = new AbortController();
  let timer: Timer | undefined;
  let queued = false;
  // One claim at a time: the busy channels it skips are counted before it.
  let claiming = false;
  let again = false;

  function tick() {
    queued = false;
    if (stopping.signal.aborted) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    const full = [...busy].filter(([, n]) => n >= PER_CHANNEL).map(([id]) => id);
    storage
      .claimNotifications(deps.clock.now(), leaseMs, BATCH, full)
      .then((rows) => rows.forEach(track))
      .catch((error: unknown) => logFailure('checkwall: claiming notifications failed', error))
      .finally(() => {
        claiming = false;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  function track(row: NotificationRow) {
    busy.set(row.channelId, (busy.get(row.channelId) ?? 0) + 1);
    const done = attempt(row).finally(() => {
      const left = (busy.get(row.channelId) ?? 1) - 1;
      if (left <= 0) busy.delete(row.channelId);
      else busy.set(row.channelId, left);
      running.delete(done);
      kick();
    });
    running.add(done);
  }

  async function attempt(row: NotificationRow): Promise<void> {
    const channel = await storage.channel(row.accountId, row.channelId);
    const sent = channel
      ? await send(row, channel)
      : ({ ok: false, permanent: true, error: 'the channel is gone' } as const);
    if (stopping.signal.aborted && !sent.ok) {
      // Cut short by a stop: due again at the next start, as if never tried.
      await storage.finishAttempt(
        row.id,
        { status: 'pending', error: sent.error, nextAttemptAt: deps.clock.now() },
        deps.clock.now(),
      );
      return;
    }
    const secrets = [...deps.transportSecrets, ...(channel ? channelSecrets(channel) : [])];
    const recorded = outcome(row, sent, secrets);
    await storage.finishAttempt(row.id, recorded, deps.clock.now());
    deps.onOutcome?.(recorded.status);
    await deps.onFinished?.(row);
  }

  async function send(row: NotificationRow, channel: StoredChannel): Promise<SendOutcome> {
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(policy.attemptTimeoutMs)]);
    // A row queued by an older version has no runbook or links: read as none.
    const { runbook = null, links = [] } = row.payload as Partial<AlertPayload>;
    const payload = { ...row.payload, runbook, links, deliveryId: row.id } as AlertPayload;
    try {
      return await deps.senders.byType[channel.type]({ id: row.id, payload, channel }, signal);
    } catch (error) {
      return { ok: false, permanent: false, error: `unexpected: ${(error as Error).name}` };
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
      timer = deps.clock.setInterval(tick, TICK_MS).unref();
      kick();
    },
    kick,
    /** Delivers one queued notification now, whatever else is under way, and gives its record. */
    async deliverNow(id: string): Promise<NotificationRow | null> {
      const row = await storage.claimNotification(id, deps.clock.now(), leaseMs);
      if (row) await attempt(row);
      return storage.notification(id);
    },
    async stop() {
      deps.clock.clearInterval(timer);
      stopping.abort(new Error('the service is stopping'));
      await Promise.allSettled([...running]);
    },
  };
}

/** What a channel's config holds that must not reach a log: header and query values, a URL's path. */
function channelSecrets(channel: StoredChannel): string[] {
  const config = channel.config as {
    url?: string;
    headers?: Array<{ value: string }>;
    queryParameters?: Array<{ value: string }>;
  };
  const out = [
    ...(config.headers ?? []).map((h) => h.value),
    ...(config.queryParameters ?? []).map((q) => q.value),
  ];
  if (config.url) out.push(config.url);
  // A provider's key (dialects/): PagerDuty's routing key, Opsgenie's API key, a chat bot's token.
  for (const key of ['routingKey', 'apiKey', 'botToken']) {
    const value = (channel.config as Record<string, unknown>)[key];
    if (typeof value === 'string') out.push(value);
  }
  if (channel.signingSecret) out.push(channel.signingSecret);
  return out;
}

// Alert delivery, wired: the dispatcher of the outbox, the reminder sweep and
// the test event of a channel. The planner is handed to the status engine,
// which writes its rows with the status change.
import { randomUUID } from 'node:crypto';
import type { Clock, Timer } from '../../domain/clock.js';
import type { Accounts } from '../config/accounts.js';
import type { CheckStatus } from '../../api/schemas/index.js';
import type { AccountConfig, CheckConfig, ServiceConfig } from '../config/schema.js';
import type { AlertRow, NotificationRow, Storage, StoredChannel } from '../storage/types.js';
import type { Exchange } from './senders/types.js';
import { createDispatcher, type DispatcherDeps } from './dispatcher.js';
import { createAlertmanagerRefresh } from './alertmanager-refresh.js';
import { createHoldEndPages } from './hold-end.js';
import { buildPayload } from './payload.js';
import type { AlertPlanner } from './planner.js';
import { transportSecrets } from './redact.js';
import { createSenders, transportWarning } from './senders/index.js';
import { logFailure } from '../storage/observed.js';

/** What alerting needs of check statuses (the status engine, wired by service.ts). */
export interface CheckStatuses {
  /** Runs `job` in order with the check's results, so a reminder never races a result. */
  perCheck<T>(account: AccountConfig, check: CheckConfig, job: () => Promise<T>): Promise<T>;
  statusOf(account: AccountConfig, check: CheckConfig): Promise<CheckStatus>;
  /** A delivery moved the check's alert: its status is read anew. */
  rereadCheck(account: AccountConfig, check: CheckConfig): Promise<void>;
}

export interface AlertingDeps {
  config: ServiceConfig;
  storage: Storage;
  accounts: Accounts;
  engine: CheckStatuses;
  planner: AlertPlanner;
  clock: Clock;
  /** Each delivery attempt's outcome (the service's /metrics). */
  onOutcome?: DispatcherDeps['onOutcome'];
}

const SWEEP_EVERY_MS = 5_000;

export type Alerting = ReturnType<typeof createAlerting>;

export function createAlerting(deps: AlertingDeps) {
  const { config, storage, accounts, engine, clock } = deps;
  const d = config.alertDelivery;
  const senders = createSenders(config, d.attemptTimeoutSeconds * 1000, () => clock.now());
  const reread = async (accountId: string, checkId: string | null) => {
    const account = accounts.byId(accountId);
    const check = account && checkId !== null ? accounts.check(account, checkId) : undefined;
    if (account && check) await engine.rereadCheck(account, check);
  };
  const dispatcher = createDispatcher({
    storage,
    senders,
    clock,
    policy: {
      attemptTimeoutMs: d.attemptTimeoutSeconds * 1000,
      maxAttempts: d.maxAttempts,
      retryBaseMs: d.retryBaseSeconds * 1000,
      retryMaxMs: d.retryMaxSeconds * 1000,
    },
    transportSecrets: transportSecrets(config),
    onFinished: (row: NotificationRow) => reread(row.accountId, row.checkId),
    ...(deps.onOutcome ? { onOutcome: deps.onOutcome } : {}),
  });

  /**
   * Queues the reminders that are due, each with its alert's count, in one transaction,
   * in order with the check's results (an alert a result resolves gets no reminder).
   */
  async function sweepReminders(): Promise<number> {
    let queued = 0;
    for (const alert of await storage.remindableAlerts()) {
      const account = accounts.byId(alert.accountId);
      const check = account && accounts.check(account, alert.checkId);
      if (!account || !check) continue;
      queued += await engine.perCheck(account, check, async () => {
        const still = await storage.openAlert(account.id, check.id);
        if (still?.id !== alert.id || still.acknowledgedAt !== null) return 0;
        const change = await deps.planner.reminder(
          account,
          check,
          still,
          await engine.statusOf(account, check),
        );
        if (!change) return 0;
        await storage.applyAlertChange(account.id, change);
        return change.notifications.length;
      });
    }
    if (queued > 0) dispatcher.kick();
    return queued;
  }

  /** Sends a `test` event to the channel now and gives its record. */
  async function testChannel(
    channel: StoredChannel,
  ): Promise<{ row: NotificationRow | null; exchange: Exchange | null }> {
    const id = randomUUID();
    const at = clock.now();
    const payload = buildPayload({
      event: 'test',
      check: null,
      status: null,
      result: null,
      alertId: null,
      incidentId: null,
      occurredAt: at,
      publicUrl: config.publicUrl,
      channel: { id: channel.id, name: channel.name },
    });
    await storage.enqueueNotification(
      channel.accountId,
      { id, channelId: channel.id, checkId: null, alertId: null, event: 'test', status: 'pending', payload },
      at,
    );
    return dispatcher.deliverNow(id);
  }

  /** Someone acknowledged an open alert: the channels that hear it (audience.ts) are told. */
  async function acknowledged(account: AccountConfig, check: CheckConfig, alert: AlertRow, by: string) {
    const queued = await engine.perCheck(account, check, async () => {
      const status = await engine.statusOf(account, check);
      const change = await deps.planner.acknowledged(account, check, alert, status, by);
      await storage.applyAlertChange(account.id, change);
      return change.notifications.length;
    });
    if (queued > 0) dispatcher.kick();
  }

  const refreshAlertmanager = createAlertmanagerRefresh({
    storage,
    accounts,
    engine,
    send: senders.byType.WEBHOOK,
    now: () => clock.now(),
    publicUrl: config.publicUrl,
    timeoutMs: d.attemptTimeoutSeconds * 1000,
    certificates: deps.planner.certificates,
  });

  let sweeper: Timer | undefined;
  return {
    sweepReminders,
    testChannel,
    /** The pages of a hold's end (hold-end.ts): each check still failing pages once. */
    pageStillFailing: createHoldEndPages({
      storage,
      accounts,
      engine,
      planner: deps.planner,
      kick: () => dispatcher.kick(),
    }),
    acknowledged,
    kick: dispatcher.kick,
    /** Messages under way now: a stop gives them up to STOP_GRACE_MS (dispatcher.ts). */
    underWay: dispatcher.underWay,
    /** One line on channels that cannot deliver, or null. */
    warning: async () => transportWarning(await storage.allChannels(), config),
    start() {
      dispatcher.start();
      let sweeping = false;
      sweeper = clock
        .setInterval(() => {
          if (sweeping) return;
          sweeping = true;
          Promise.all([sweepReminders(), refreshAlertmanager()])
            .catch((error: unknown) => logFailure('checkwall: the reminder sweep failed', error))
            .finally(() => (sweeping = false));
        }, SWEEP_EVERY_MS)
        .unref();
    },
    async stop() {
      clock.clearInterval(sweeper);
      await dispatcher.stop();
      await senders.close();
    },
  };
}

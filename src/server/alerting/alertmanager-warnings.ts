// The warnings an Alertmanager channel is posted again while they stand (alertmanager-refresh.ts):
// a check's degraded warning while the check with `onDegraded` is still degraded, and a check's
// certificate warning until its `certificate-end` (certificate-warnings.ts keeps where it stands).
// Whether the warning went to the channel is read only when its post is due, not every sweep.
import type { CheckStatus } from '../../api/schemas/index.js';
import { mayPresentCertificate } from '../../domain/certificate.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { StoredChannel } from '../storage/types.js';
import type { RefreshDeps } from './alertmanager-refresh.js';
import { warnedAt } from './notify.js';
import { buildPayload, type StoredPayload } from './payload.js';

/** A warning due to be posted again to a channel when repostSeconds have passed since `key` was. */
export interface WarningRepost {
  key: string;
  channel: StoredChannel;
  post: () => Promise<boolean>;
}

const NOWHERE: ReadonlySet<number> = new Set();

type Send = (payload: StoredPayload, channel: StoredChannel) => Promise<boolean>;

export function createWarningReposts(deps: RefreshDeps, send: Send) {
  /** The warning posted as it was sent, without a result: Alertmanager reads only its labels and words. */
  function post(
    event: 'degraded' | 'certificate',
    account: AccountConfig,
    check: CheckConfig,
    status: CheckStatus,
    channel: StoredChannel,
  ) {
    const at = { id: channel.id, name: channel.name };
    const payload = buildPayload({
      ...{ event, check, account, status, result: null, alertId: null, incidentId: null },
      ...{ occurredAt: deps.now(), publicUrl: deps.publicUrl, channel: at },
    });
    return send(payload, channel);
  }

  /** Each check of an account with Alertmanager channels, with those of them `at` names for it. */
  async function pairsAt(
    channels: StoredChannel[],
    at: (account: AccountConfig, check: CheckConfig, mine: StoredChannel[]) => Promise<StoredChannel[]>,
  ) {
    const pairs: Array<{ account: AccountConfig; check: CheckConfig; channel: StoredChannel }> = [];
    for (const account of deps.accounts.all()) {
      const mine = channels.filter((c) => c.accountId === account.id);
      if (mine.length === 0) continue;
      for (const check of account.checks)
        for (const channel of await at(account, check, mine)) pairs.push({ account, check, channel });
    }
    return pairs;
  }

  /** Each check with `onDegraded` degraded now, with each Alertmanager channel of its account. */
  const degradedAt = (channels: StoredChannel[]) =>
    pairsAt(channels, async (account, check, mine) =>
      check.alerts.onDegraded && (await deps.engine.statusOf(account, check)).status === 'degraded'
        ? mine
        : [],
    );

  /**
   * Each check's certificate warning standing at an Alertmanager channel, as the planner keeps
   * it (certificate-warnings.ts). Nothing is read but, once after a start, an https check not yet
   * kept: a warning sent before the start is posted again before its endsAt, not only after the
   * check's next result.
   */
  const certificateWarningsAt = (channels: StoredChannel[]) =>
    pairsAt(channels, async (account, check, mine) => {
      const { certificates } = deps;
      const kept = certificates.peek(account, check);
      const at =
        kept ?? (mayPresentCertificate(check) ? await certificates.standing(account, check) : NOWHERE);
      return mine.filter((c) => at.has(c.id));
    });

  /** Whether the check's last warning to the channel came after its last end there. */
  async function warningStands(
    account: AccountConfig,
    check: CheckConfig,
    channel: StoredChannel,
    warning: 'degraded' | 'certificate',
  ) {
    return (await warnedAt(deps.storage, account.id, check.id, [channel], warning)).length > 0;
  }

  async function repostCertificate(account: AccountConfig, check: CheckConfig, channel: StoredChannel) {
    // Read in order with the check's results: a warning a result has just ended is not posted again.
    const status = await deps.engine.perCheck(account, check, async () =>
      (await warningStands(account, check, channel, 'certificate'))
        ? deps.engine.statusOf(account, check)
        : null,
    );
    if (!status) {
      // Kept wrongly (ended by another instance): read afresh, not asked again every sweep.
      deps.certificates.forget(account, check);
      return false;
    }
    return post('certificate', account, check, status, channel);
  }

  async function repostDegraded(account: AccountConfig, check: CheckConfig, channel: StoredChannel) {
    // Read in order with the check's results: a check a result has just moved is not posted again.
    const status = await deps.engine.perCheck(account, check, async () => {
      const now = await deps.engine.statusOf(account, check);
      return now.status === 'degraded' ? now : null;
    });
    if (!status) return false;
    return post('degraded', account, check, status, channel);
  }

  /** The warnings standing at the Alertmanager channels `channels`, each with its post. */
  return async function warnings(channels: StoredChannel[]): Promise<WarningRepost[]> {
    const degraded = (await degradedAt(channels)).map(({ account, check, channel }) => ({
      key: `degraded\0${account.id}\0${check.id}\0${channel.id}`,
      channel,
      post: async () =>
        (await warningStands(account, check, channel, 'degraded')) && repostDegraded(account, check, channel),
    }));
    const certificate = (await certificateWarningsAt(channels)).map(({ account, check, channel }) => ({
      key: `certificate\0${account.id}\0${check.id}\0${channel.id}`,
      channel,
      post: () => repostCertificate(account, check, channel),
    }));
    return [...degraded, ...certificate];
  };
}

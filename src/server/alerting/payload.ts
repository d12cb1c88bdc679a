// The facts of one notification, frozen when it is enqueued: what every sender
// renders (the WEBHOOK body is this, plus the delivery id).
import type { AlertEvent, AlertPayload, CheckResult, CheckStatus } from '../../api/schemas/index.js';
import { utf8Tail } from '../../domain/utf8-tail.js';
import { runbookOf } from '../config/runbook-keys.js';
import { dashboardCheckIds } from '../config/accounts.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';

export type StoredPayload = Omit<AlertPayload, 'deliveryId'>;

export interface PayloadInput {
  event: AlertEvent;
  check: CheckConfig | null;
  /**
   * The check's account: a check without a runbook or links of its own takes its group's,
   * and one on a public dashboard links to its status page.
   */
  account?: Pick<AccountConfig, 'groups' | 'dashboards' | 'checks'> | undefined;
  status: CheckStatus | null;
  result: CheckResult | null;
  alertId: string | null;
  incidentId: string | null;
  occurredAt: number;
  publicUrl: string | undefined;
  channel: { id: number; name: string };
  reminder?: number;
  acknowledgedBy?: string;
  /** The page at a maintenance window's end over a check still failing. */
  maintenance?: { id: string; name: string; failingSince: string };
  certificate?: StoredPayload['certificate'];
}

export function buildPayload(input: PayloadInput): StoredPayload {
  const { check, status, result } = input;
  const payload: StoredPayload = {
    event: input.event,
    alertId: input.alertId,
    check: check ? { id: check.id, name: check.name, type: check.type } : null,
    status: status?.status ?? null,
    failingLocations: (status?.locations ?? [])
      .filter((l) => l.status === 'failing')
      .map((l) => ({ id: l.id, name: l.name })),
    error: status?.lastExecution?.error ?? null,
    resultId: result?.id ?? null,
    incidentId: input.incidentId,
    occurredAt: new Date(input.occurredAt).toISOString(),
    link: check ? linkOf(input, check, result) : null,
    channel: input.channel,
    ...(check ? runbookOf(check, input.account?.groups ?? []) : { runbook: null, links: [] }),
  };
  if (input.reminder !== undefined) payload.reminder = input.reminder;
  if (input.acknowledgedBy !== undefined) payload.acknowledgedBy = input.acknowledgedBy;
  if (input.maintenance !== undefined) payload.maintenance = input.maintenance;
  if (input.certificate) payload.certificate = input.certificate;
  if (result?.heartbeat && result.status === 'failed') payload.heartbeat = heartbeatOf(result);
  return payload;
}

/** A heartbeat run's page: its code, its time and the end of its output (1 KB: a pager's text is short). */
function heartbeatOf(result: CheckResult): NonNullable<StoredPayload['heartbeat']> {
  const tail = utf8Tail(Buffer.from(result.response?.body ?? ''), HEARTBEAT_OUTPUT_TAIL_BYTES);
  return { exitCode: result.heartbeat?.exitCode ?? null, durationMs: result.duration, outputTail: tail };
}
const HEARTBEAT_OUTPUT_TAIL_BYTES = 1024;

/**
 * Where a person can look: the status page of the first public dashboard that shows the
 * check (its custom domain, or under publicUrl); otherwise the result in the API (from = to
 * = its start), which needs the API's two headers (docs/alerts.md, "The webhook body").
 */
function linkOf(input: PayloadInput, check: CheckConfig, result: CheckResult | null): string | null {
  const account = input.account;
  const page = account?.dashboards.find((d) => !d.isPrivate && dashboardCheckIds(account, d).has(check.id));
  if (page?.customDomain) return `https://${page.customDomain}/`;
  if (page && input.publicUrl)
    return `${input.publicUrl.replace(/\/+$/, '')}/status/${encodeURIComponent(page.customUrl)}`;
  return resultLink(input.publicUrl, check.id, result);
}

/** The result at the service (from = to = its start), or the check's results without one. */
function resultLink(publicUrl: string | undefined, checkId: string, result: CheckResult | null) {
  if (!publicUrl) return null;
  const base = `${publicUrl.replace(/\/+$/, '')}/v1/check-results/${encodeURIComponent(checkId)}`;
  if (!result) return base;
  const at = encodeURIComponent(result.startedAt);
  return `${base}?from=${at}&to=${at}`;
}

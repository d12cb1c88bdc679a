// Prometheus Alertmanager (POST <url>/api/v2/alerts). An alert's labels stay fixed
// for its life, so Alertmanager sees one alert from its failure to its recovery:
// every post sets endsAt = now + 3 × repostSeconds and, while the alert is open,
// the reminder sweep posts it again (alertmanager-refresh.ts); a recovery posts
// endsAt = now. Alertmanager has no acknowledgement: that event is not sent.
import type { AlertPayload } from '../../../api/schemas/index.js';
import { subject } from '../message.js';
import { whereOf } from './severity.js';
import { jsonRequest, under, type Dialect } from './types.js';

export const DEFAULT_REPOST_SECONDS = 60;

/** What the alert is to Alertmanager: one name per kind, fixed labels, and whether it ends now. */
function shapeOf(p: AlertPayload): { alertname: string; severity: string; endsNow: boolean } {
  switch (p.event) {
    case 'failure':
    case 'reminder':
      return { alertname: 'CheckwallCheckFailing', severity: 'critical', endsNow: false };
    case 'recovery':
      return { alertname: 'CheckwallCheckFailing', severity: 'critical', endsNow: true };
    case 'degraded':
      return { alertname: 'CheckwallCheckDegraded', severity: 'warning', endsNow: false };
    case 'degraded-end':
      return { alertname: 'CheckwallCheckDegraded', severity: 'warning', endsNow: true };
    case 'certificate':
      return { alertname: 'CheckwallCertificateExpiring', severity: 'warning', endsNow: false };
    case 'certificate-end':
      return { alertname: 'CheckwallCertificateExpiring', severity: 'warning', endsNow: true };
    case 'location':
      return { alertname: 'CheckwallLocationDown', severity: 'critical', endsNow: false };
    case 'location-recovery':
      return { alertname: 'CheckwallLocationDown', severity: 'critical', endsNow: true };
    case 'acknowledgement':
    case 'test':
    default:
      // A channel's test shows up resolved: it proves the path without paging anyone.
      return { alertname: 'CheckwallTest', severity: 'info', endsNow: true };
  }
}

export const alertmanagerDialect: Dialect = (delivery, config, now) => {
  const p = delivery.payload;
  if (p.event === 'acknowledgement') return { skip: 'Alertmanager has no acknowledgement' };
  const shape = shapeOf(p);
  const repostMs = (config.repostSeconds ?? DEFAULT_REPOST_SECONDS) * 1000;
  const endsAt = new Date(shape.endsNow ? now : now + 3 * repostMs).toISOString();
  const labels: Record<string, string> = {
    alertname: shape.alertname,
    account: delivery.channel.accountId,
    severity: shape.severity,
  };
  if (p.check) labels['check_id'] = p.check.id;
  if (p.location) labels['location_id'] = p.location.id;
  const annotations: Record<string, string> = { summary: subject(p) };
  if (p.check) annotations['check_name'] = p.check.name;
  if (whereOf(p)) annotations['failing_locations'] = whereOf(p);
  if (p.error ?? p.cause) annotations['description'] = (p.error ?? p.cause)!;
  if (p.runbook) annotations['runbook_url'] = p.runbook;
  if (p.links.length) annotations['links'] = p.links.map((l) => `${l.name}: ${l.url}`).join('\n');
  const alert = { labels, annotations, endsAt, ...(p.link ? { generatorURL: p.link } : {}) };
  return jsonRequest('POST', under(config.url, '/api/v2/alerts'), [alert]);
};

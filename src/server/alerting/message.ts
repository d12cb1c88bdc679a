// The words of a notification, from its payload: a subject, one line for a
// phone screen or a chat, a plain-text and an HTML body, and a sentence to speak.
import type { AlertEvent, AlertPayload } from '../../api/schemas/index.js';

const TAGS: Record<AlertEvent, string> = {
  failure: 'FAILING',
  recovery: 'RECOVERED',
  degraded: 'DEGRADED',
  reminder: 'FAILING',
  test: 'TEST',
  certificate: 'CERTIFICATE',
  acknowledgement: 'ACKNOWLEDGED',
  location: 'LOCATION DOWN',
  'location-recovery': 'LOCATION BACK',
  'degraded-end': 'NO LONGER DEGRADED',
  'certificate-end': 'CERTIFICATE OK',
};

/** The tag of the subject line; a kind this version does not know by its raw name. */
export const tagOf = (p: AlertPayload): string => TAGS[p.event as AlertEvent] ?? p.event.toUpperCase();

const subjectOf = (p: AlertPayload) => p.check?.name ?? p.location?.name ?? `channel ${p.channel.name}`;

/** A grouped message's checks (alerting/grouping.ts); empty for one check's. */
const groupedOf = (p: AlertPayload): Array<{ name?: string }> =>
  Array.isArray(p['grouped']) ? (p['grouped'] as Array<{ name?: string }>) : [];

/** What an SMS or a call says of a group: its first few checks named, the count of the rest. */
const SHORT_NAMES = 3;
function shortSubjectOf(p: AlertPayload): string {
  const grouped = groupedOf(p);
  if (grouped.length <= SHORT_NAMES) return subjectOf(p);
  const verb = p.event === 'recovery' ? 'recovered' : 'failing';
  const names = grouped.slice(0, SHORT_NAMES).map((g) => g.name ?? '?');
  return `${grouped.length} checks ${verb}: ${names.join(', ')} and ${grouped.length - SHORT_NAMES} more`;
}

/** What a grouped message says after its checks' names: where they fail; each alert is its own. */
function groupedWhat(p: AlertPayload): string {
  if (p.event === 'recovery') return 'now passing';
  const where = p.failingLocations.map((l) => l.name).join(', ');
  return where ? `at ${where}` : 'now';
}

export function subject(p: AlertPayload): string {
  const tail = p.event === 'reminder' ? ` (reminder ${p.reminder ?? 1})` : '';
  return `[${tagOf(p)}] ${subjectOf(p)}${tail}`;
}

export function what(p: AlertPayload): string {
  if (groupedOf(p).length > 1) return groupedWhat(p);
  const event = p.event as AlertEvent;
  switch (event) {
    case 'test':
      return 'a test notification from Checkwall: this channel works';
    case 'recovery':
      return `recovered, now ${p.status ?? 'passing'}`;
    case 'degraded':
      return 'is degraded';
    case 'degraded-end':
      return `is no longer degraded, now ${p.status ?? 'passing'}`;
    case 'failure':
    case 'reminder': {
      const where = p.failingLocations.map((l) => l.name).join(', ');
      const at = where ? ` at ${where}` : '';
      // The page at a window's end: a deploy that left the check broken is not hidden.
      if (p.maintenance)
        return `has been failing${at} since ${p.maintenance.failingSince} during maintenance "${p.maintenance.name}"`;
      return `is failing${at}`;
    }
    case 'certificate':
      return certificateWords(p);
    case 'certificate-end':
      return 'shows no certificate near expiry at any location now: its expiry warning has ended';
    case 'acknowledgement':
      return `was acknowledged${p.acknowledgedBy ? ` by ${p.acknowledgedBy}` : ''}: its alert stays open until it recovers`;
    case 'location':
      return `is down: ${outageSentence(p)}`;
    case 'location-recovery':
      return `is back${p.since ? ` (down since ${p.since})` : ''}: its checks page one by one again, and each still failing there pages once now`;
    default:
      return `(${String(event)})`;
  }
}

/** A location outage's cause without the location's name it starts with (the subject says it). */
export function outageSentence(p: AlertPayload): string {
  const cause = p.cause ?? `${p.failing ?? 0} of ${p.total ?? 0} checks failing`;
  const name = `${p.location?.name ?? ''}: `;
  return cause.startsWith(name) ? cause.slice(name.length) : cause;
}

/** Which certificate, when it expires and where it was seen. */
function certificateWords(p: AlertPayload): string {
  const c = p.certificate;
  if (!c) return 'has a certificate about to expire';
  const which = c.chain
    ? `an intermediate certificate in the chain of ${c.subject} (issued by ${c.issuer})`
    : `the certificate ${c.subject} (issued by ${c.issuer})`;
  const when = c.daysRemaining < 0 ? 'expired on' : `expires in ${days(c.daysRemaining)}, on`;
  return `has ${which} that ${when} ${c.validTo}, as seen from ${c.location.name}`;
}

const days = (n: number) => (n === 0 ? 'less than a day' : n === 1 ? '1 day' : `${n} days`);

/** One line an engineer can read on a phone. */
export function oneLine(p: AlertPayload): string {
  const quiet =
    (p.event !== 'failure' && p.event !== 'reminder' && p.event !== 'degraded') || groupedOf(p).length > 1;
  const error = p.error && !quiet ? `: ${p.error}` : '';
  const link = p.link && groupedOf(p).length <= 1 ? ` ${p.link}` : '';
  return `${subject(p)} ${what(p)}${error}${link}`;
}

/** An SMS: one line, a group's names cut to a few. */
export function shortLine(p: AlertPayload): string {
  if (groupedOf(p).length <= SHORT_NAMES) return oneLine(p);
  return `[${tagOf(p)}] ${shortSubjectOf(p)} ${what(p)}`;
}

export function textBody(p: AlertPayload): string {
  const lines = [
    `${subjectOf(p)} ${what(p)}.`,
    '',
    p.check ? `Check:     ${p.check.name} (${p.check.id}, ${p.check.type})` : undefined,
    p.location ? `Location:  ${p.location.name} (${p.location.id})` : undefined,
    p.outageId
      ? `Outage:    ${p.outageId}, since ${p.since ?? '?'}, ${p.failing ?? 0} of ${p.total ?? 0} checks failing`
      : undefined,
    p.status ? `Status:    ${p.status}` : undefined,
    p.certificate ? `Expires:   ${p.certificate.validTo} (${p.certificate.subject})` : undefined,
    p.certificate ? `Seen at:   ${p.certificate.location.name} (${p.certificate.location.id})` : undefined,
    p.error ? `Error:     ${p.error}` : undefined,
    p.incidentId ? `Incident:  ${p.incidentId}` : undefined,
    `When:      ${p.occurredAt}`,
    p.link ? `Result:    ${p.link}` : undefined,
    '',
    `Delivery ${p.deliveryId} to channel ${p.channel.name}.`,
  ];
  return lines.filter((l) => l !== undefined).join('\n');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function htmlBody(p: AlertPayload): string {
  const rows = textBody(p)
    .split('\n')
    .map((line) => (line === '' ? '<br>' : `<div>${escapeHtml(line)}</div>`));
  const link = p.link ? `<p><a href="${escapeHtml(p.link)}">Open the result</a></p>` : '';
  return `<!doctype html><html><body><h2>${escapeHtml(subject(p))}</h2>${rows.join('')}${link}</body></html>`;
}

/** What a PHONE channel's call says: short, no links. */
export function speech(p: AlertPayload): string {
  return `Checkwall alert. ${shortSubjectOf(p)} ${what(p)}.`;
}

export { escapeHtml };

// What every chat dialect shows of one notification, from its payload: clean
// text (no escape sequences or control characters, a name on one line), the
// severity as the services rank it, and the links. Each dialect escapes these for
// its own markup and cuts them to its own limits (cutEscaped).
import type { AlertPayload } from '../../../api/schemas/index.js';
import { sanitize, sanitizeMultiline } from '../../../domain/sanitize.js';
import { what } from '../message.js';
import { endsAlert } from './severity.js';

/** A heading word per event kind; a kind this version does not know shows by its raw name. */
const TITLES: Record<string, string> = {
  failure: 'Failing',
  reminder: 'Still failing',
  degraded: 'Degraded',
  recovery: 'Recovered',
  acknowledgement: 'Acknowledged',
  certificate: 'Certificate expiring',
  test: 'Test',
  location: 'Location down',
  'location-recovery': 'Location back',
  'degraded-end': 'No longer degraded',
  'certificate-end': 'Certificate no longer expiring',
};

export type Severity = 'failure' | 'degraded' | 'recovery' | 'info';

/** One way everywhere (docs/alerts.md): a failure pages loudest, a recovery is quiet. */
export function severityOf(event: string): Severity {
  if (event === 'failure' || event === 'reminder' || event === 'location') return 'failure';
  if (event === 'degraded' || event === 'certificate') return 'degraded';
  if (endsAlert(event)) return 'recovery';
  return 'info';
}

export interface Link {
  name: string;
  url: string;
}

export interface ChatFacts {
  event: string;
  severity: Severity;
  /** "Failing", or the raw kind of an event this version does not know. */
  title: string;
  /** The check's name on one line (or the channel's, for a test). */
  subject: string;
  /** What happened, one sentence without the name: "is failing at Frankfurt". */
  summary: string;
  /** The failing locations' names, comma separated, or null. */
  where: string | null;
  /** The error, lines kept, for the events that carry one; null otherwise. */
  cause: string | null;
  /** The result at the service (for API clients: docs/alerts.md), or null. */
  result: string | null;
  runbook: string | null;
  /** The check's links, then none: at most 10 by the config's rule. */
  links: Link[];
  occurredAt: string;
}

const QUIET = new Set([
  'recovery',
  'test',
  'certificate',
  'acknowledgement',
  'location-recovery',
  'degraded-end',
  'certificate-end',
]);
/**
 * An http(s) URL as ASCII, or null: the config takes an address with a space or a
 * non-ASCII character (`https://wiki/Störung 中`), which a header cannot carry (ntfy's
 * X-Actions: undici refuses it and the page is never sent) and markup reads a space as
 * the link's end. Its WHATWG serialisation percent-encodes them (a host goes to punycode).
 */
function httpOnly(u: string | null | undefined): string | null {
  if (!u || !/^https?:\/\//i.test(u)) return null;
  try {
    return new URL(u).href;
  } catch {
    return null;
  }
}

/** The error as shown, or null when nothing of it is left to show (an empty text block is refused). */
function causeOf(error: string): string | null {
  const clean = sanitizeMultiline(error);
  return /\S/.test(clean) ? clean : null;
}

export function chatFacts(p: AlertPayload): ChatFacts {
  const summary = (what(p) as string | undefined) ?? p.event;
  const where = p.location
    ? sanitize(p.location.name)
    : p.failingLocations.map((l) => sanitize(l.name)).join(', ');
  return {
    event: p.event,
    severity: severityOf(p.event),
    title: TITLES[p.event] ?? sanitize(p.event),
    subject: sanitize(p.check?.name ?? p.location?.name ?? `channel ${p.channel.name}`),
    summary: sanitize(summary),
    where: where || null,
    cause: p.error && !QUIET.has(p.event) ? causeOf(p.error) : null,
    result: httpOnly(p.link),
    runbook: httpOnly(p.runbook ?? null),
    links: (p.links ?? []).flatMap((l) => {
      const url = httpOnly(l.url);
      return url ? [{ name: sanitize(l.name), url }] : [];
    }),
    occurredAt: p.occurredAt,
  };
}

/** The links a reader follows, in order: the result, the runbook, then the check's own. */
export function allLinks(f: ChatFacts): Link[] {
  return [
    ...(f.result ? [{ name: 'Result', url: f.result }] : []),
    ...(f.runbook ? [{ name: 'Runbook', url: f.runbook }] : []),
    ...f.links,
  ];
}

/**
 * The links that fit a message with a size limit: dropped from the end (the check's own
 * first, the result last) while `size(links)` is over `max`. A link is whole or absent: a
 * cut address would not open.
 */
export function linksWithin(links: Link[], max: number, size: (kept: Link[]) => number): Link[] {
  let kept = links;
  while (kept.length > 0 && size(kept) > max) kept = kept.slice(0, -1);
  return kept;
}

export const ELLIPSIS = '…';

/** How long a piece of text counts: UTF-16 units by default; bytes for services that count bytes. */
export type Measure = (piece: string) => number;
const units: Measure = (s) => s.length;
/** UTF-8 bytes (ntfy's message limit, Google Chat's and Teams' message size). */
export const bytes: Measure = (s) => Buffer.byteLength(s, 'utf8');
/** UTF-8 bytes once inside a JSON string (a quote or a backslash doubles). */
export const jsonBytes: Measure = (s) => Buffer.byteLength(JSON.stringify(s), 'utf8') - 2;

/**
 * `text` escaped character by character, cut so the escaped text measures at most
 * `max`, ending in "…" when cut; an escape and a surrogate pair are never split.
 */
export function cutEscaped(
  text: string,
  max: number,
  escape: (ch: string) => string = (c) => c,
  measure: Measure = units,
): string {
  const pieces = Array.from(text, escape);
  const sizes = pieces.map(measure);
  if (sizes.reduce((a, b) => a + b, 0) <= max) return pieces.join('');
  let out = '';
  let size = 0;
  const room = max - measure(ELLIPSIS);
  for (let i = 0; i < pieces.length && size + sizes[i]! <= room; i++) {
    out += pieces[i]!;
    size += sizes[i]!;
  }
  return `${out}${ELLIPSIS}`;
}

/**
 * A text built around one long part (the cause): the part is cut so the whole text
 * measures at most `max` (its escape applied by `cutEscaped`, not by `build`).
 */
export function fitAround(
  build: (part: string) => string,
  part: string,
  max: number,
  escape?: (ch: string) => string,
  measure: Measure = units,
): string {
  const room = Math.max(0, max - measure(build('')));
  return build(cutEscaped(part, room, escape, measure));
}

/** Backslash before each character of `set` (Markdown-like escaping). */
export const backslash =
  (set: string) =>
  (ch: string): string =>
    set.includes(ch) ? `\\${ch}` : ch;

/** A URL with each character of `set` (and whitespace) percent-encoded, to sit inside markup. */
export const percentEncoded = (url: string, set: string): string =>
  Array.from(url, (c) =>
    set.includes(c) || /\s/.test(c) ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : c,
  ).join('');

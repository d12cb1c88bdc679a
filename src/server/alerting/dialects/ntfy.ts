// ntfy: a POST to the topic URL, the message as the body (at most 4,096 bytes: longer,
// ntfy turns it into an attachment, and a server without attachments answers 400) and the
// rest in headers: Title,
// Priority from the severity (failure 5, degraded 4, recovery 3), Tags, Click (the
// result) and Actions (a view action per link, at most 3). A header is ASCII: a
// title with other characters goes RFC 2047-encoded, which ntfy decodes.
import { allLinks, bytes, chatFacts, cutEscaped, fitAround, percentEncoded, type Severity } from './facts.js';
import type { ChatDialect } from './types.js';

export const NTFY_MAX_BYTES = 4096;
export const NTFY_PRIORITY: Record<Severity, number> = { failure: 5, degraded: 4, recovery: 3, info: 3 };
const TAGS: Record<Severity, string> = {
  failure: 'rotating_light',
  degraded: 'warning',
  recovery: 'white_check_mark',
  info: 'information_source',
};
const MAX_ACTIONS = 3;
/** What the head (a group of 300 checks names them all) leaves at least for the cause. */
const CAUSE_ROOM = 1024;

/** A header value as ntfy reads it: ASCII as is, anything else as =?UTF-8?B?…?=. */
export function headerText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  return `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

// In an action, a comma or semicolon ends the part: a URL keeps them percent-encoded.
const actionUrl = (u: string) => percentEncoded(u, ',;"');
const actionLabel = (name: string) =>
  name
    .replace(/[^A-Za-z0-9 _.-]/g, '')
    .trim()
    .slice(0, 40) || 'Link';

export const ntfy: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  // Over 4,096 bytes ntfy makes the message an attachment, and a server without attachments refuses it.
  const head = cutEscaped(
    `${f.subject} ${f.summary}`,
    f.cause ? NTFY_MAX_BYTES - CAUSE_ROOM : NTFY_MAX_BYTES,
    undefined,
    bytes,
  );
  const body = fitAround(
    (cause) => (f.cause ? `${head}\n\n${cause}` : head),
    f.cause ?? '',
    NTFY_MAX_BYTES,
    undefined,
    bytes,
  );
  const actions = allLinks(f)
    .slice(0, MAX_ACTIONS)
    .map((l) => `view, ${actionLabel(l.name)}, ${actionUrl(l.url)}, clear=true`);
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    'x-title': headerText(cutEscaped(`${f.title}: ${f.subject}`, 250)),
    'x-priority': String(NTFY_PRIORITY[f.severity]),
    'x-tags': TAGS[f.severity],
  };
  if (f.result) headers['x-click'] = f.result;
  if (actions.length) headers['x-actions'] = actions.join('; ');
  return { url: config.url, headers, body };
};

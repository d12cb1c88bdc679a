// Mattermost (incoming webhook): Markdown `text`, and `channel` (its name, without
// the #) when the channel names one. Mattermost keeps a post to 16,383 characters.
// Untrusted text is backslash-escaped, and an @ gets a zero-width space after it so
// a check name cannot mention @channel or @all.
import {
  allLinks,
  backslash,
  chatFacts,
  cutEscaped,
  fitAround,
  linksWithin,
  percentEncoded,
  type Link,
} from './facts.js';
import { JSON_HEADERS, type ChatDialect } from './types.js';

export const MATTERMOST_MAX = 16383;
const CAUSE_MAX = 4000;
/** What the links leave at least for the cause (up to 12 addresses of 2,000 characters). */
const CAUSE_ROOM = 1000;
const LINE_MAX = 2000;

const markdown = backslash('\\`*_{}[]()#+-.!|<>~');
export const escapeMattermost = (ch: string) => (ch === '@' ? '@\u200b' : markdown(ch));
const esc = (s: string) => Array.from(s, escapeMattermost).join('');
/** A name or a sentence, cut (a group's names them all: 300 checks are 10,000 characters and more). */
const line = (s: string) => cutEscaped(s, LINE_MAX, escapeMattermost);
const urlIn = (u: string) => percentEncoded(u, '()');

export const mattermost: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  const headWith = (links: Link[]) =>
    [
      `#### ${line(`${f.title}: ${f.subject}`)}`,
      line(`${f.subject} ${f.summary}`),
      `When: ${esc(f.occurredAt)}`,
      ...(links.length ? [links.map((l) => `[${esc(l.name)}](${urlIn(l.url)})`).join(' · ')] : []),
    ].join('\n');
  const links = linksWithin(allLinks(f), MATTERMOST_MAX - CAUSE_ROOM, (kept) => headWith(kept).length);
  const head = headWith(links);
  const build = (cause: string) => (f.cause ? `${head}\n\n**Cause**\n${cause}` : head);
  const text = fitAround(
    build,
    f.cause ?? '',
    Math.min(MATTERMOST_MAX, head.length + CAUSE_MAX),
    escapeMattermost,
  );
  const body: Record<string, unknown> = { text };
  if (config.channel) body['channel'] = config.channel.replace(/^#/, '');
  return { url: config.url, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
};

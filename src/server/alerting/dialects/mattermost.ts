// Mattermost (incoming webhook): Markdown `text`, and `channel` (its name, without
// the #) when the channel names one. Mattermost keeps a post to 16,383 characters.
// Untrusted text is backslash-escaped, and an @ gets a zero-width space after it so
// a check name cannot mention @channel or @all.
import { allLinks, backslash, chatFacts, fitAround, percentEncoded } from './facts.js';
import { JSON_HEADERS, type ChatDialect } from './types.js';

export const MATTERMOST_MAX = 16383;
const CAUSE_MAX = 4000;

const markdown = backslash('\\`*_{}[]()#+-.!|<>~');
export const escapeMattermost = (ch: string) => (ch === '@' ? '@\u200b' : markdown(ch));
const esc = (s: string) => Array.from(s, escapeMattermost).join('');
const urlIn = (u: string) => percentEncoded(u, '()');

export const mattermost: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  const links = allLinks(f).map((l) => `[${esc(l.name)}](${urlIn(l.url)})`);
  const head = [
    `#### ${esc(f.title)}: ${esc(f.subject)}`,
    `${esc(f.subject)} ${esc(f.summary)}`,
    `When: ${esc(f.occurredAt)}`,
    ...(links.length ? [links.join(' · ')] : []),
  ].join('\n');
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

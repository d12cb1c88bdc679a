// Telegram (Bot API sendMessage): POST {url}/bot{botToken}/sendMessage with the
// chat id and a MarkdownV2 text. The token is never in `url` (it is a secret of its
// own, masked wherever the config shows). MarkdownV2 wants a backslash before each
// of _*[]()~`>#+-=|{}.!\ in text, before ` and \ inside a code block, and before )
// and \ inside a link's address. A message is at most 4,096 characters after entities
// parsing (a link's address, the markers and the escapes' backslashes do not count): the
// cause gets what the head leaves, counted raw (more than Telegram counts).
import { allLinks, backslash, chatFacts, cutEscaped } from './facts.js';
import { TELEGRAM_API_URL } from '../../../api/schemas/index.js';
import { JSON_HEADERS, type ChatDialect } from './types.js';

export const TELEGRAM_MAX = 4096;
export const escapeMarkdownV2 = backslash('_*[]()~`>#+-=|{}.!\\');
/**
 * Text outside a code block: MarkdownV2's escapes, and a zero-width space after an @, as
 * Mattermost's: Telegram finds an @username in plain text on its own and notifies that user.
 */
const escapeText = (ch: string) => (ch === '@' ? '@\u200b' : escapeMarkdownV2(ch));
const escapeCode = backslash('`\\');
const escapeLinkUrl = backslash(')\\');
const esc = (s: string, max = 1000) => cutEscaped(s, max, escapeText);

/**
 * What Telegram counts of MarkdownV2 text without a code block (the head): a link's
 * address and each escape's backslash out. `](` is a link's end only: in text both are escaped.
 */
const parsedLength = (markdown: string) =>
  markdown.replace(/\]\((?:\\.|[^)\\])*\)/g, ']').replace(/\\(.)/g, '$1').length;

export const telegram: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  const links = allLinks(f).map((l) => `[${esc(l.name, 80)}](${Array.from(l.url, escapeLinkUrl).join('')})`);
  const head = [
    `*${esc(`${f.title}: ${f.subject}`)}*`,
    `${esc(f.subject)} ${esc(f.summary)}`,
    esc(`When: ${f.occurredAt}`),
    ...(links.length ? [links.join(esc(' · '))] : []),
  ].join('\n');
  const build = (cause: string) => (f.cause ? `${head}\n\`\`\`\n${cause}\n\`\`\`` : head);
  // The code block's fences count raw; the head as Telegram counts it.
  const room = TELEGRAM_MAX - (build('').length - head.length) - parsedLength(head);
  const text = build(cutEscaped(f.cause ?? '', room, escapeCode));
  const base = (config.url || TELEGRAM_API_URL).replace(/\/+$/, '');
  return {
    url: `${base}/bot${config.botToken ?? ''}/sendMessage`,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify({
      chat_id: config.chatId,
      text,
      parse_mode: 'MarkdownV2',
      link_preview_options: { is_disabled: true },
    }),
  };
};

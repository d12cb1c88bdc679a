// Google Chat (incoming webhook): a `text` line for notifications and a card
// (cardsV2) with the summary, the cause and a button per link. Card text is a
// small HTML subset, so untrusted text is HTML-escaped; in `text`, < and > become
// ‹ › so a check name cannot write a <users/all> mention. A message is at most
// 32,000 bytes: the links (up to 12 addresses of 2,000 characters) are kept while they
// leave room for the cause, and the cause is cut to what is left.
import { escapeHtml } from '../message.js';
import { allLinks, chatFacts, cutEscaped, jsonBytes, linksWithin, type Link } from './facts.js';
import { JSON_HEADERS, type ChatDialect } from './types.js';

export const GOOGLE_CHAT_MAX_BYTES = 32_000;
const CAUSE_BYTES = 8_000;
/** What the links leave at least for the cause (and a margin for rounding). */
const CAUSE_ROOM = 2_000;
const MARGIN = 500;
const TEXT_MAX = 1000;

const html = (s: string, max = TEXT_MAX) => cutEscaped(s, max, escapeHtml);
export const escapeChatText = (ch: string) => (ch === '<' ? '‹' : ch === '>' ? '›' : ch);

export const googlechat: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  const head: unknown[] = [
    { textParagraph: { text: `${html(f.subject)} ${html(f.summary)}` } },
    { decoratedText: { topLabel: 'When', text: html(f.occurredAt) } },
  ];
  if (f.where) head.push({ decoratedText: { topLabel: 'Locations', text: html(f.where), wrapText: true } });
  const header = { title: cutEscaped(`${f.title}: ${f.subject}`, 200), subtitle: 'Checkwall' };
  const text = cutEscaped(`${f.title}: ${f.subject} ${f.summary}`, TEXT_MAX, escapeChatText);
  const message = (cause: string | null, links: Link[]) => {
    const widgets = [...head];
    if (cause !== null) widgets.push({ textParagraph: { text: `<b>Cause</b><br>${cause}` } });
    const buttons = links.map((l) => ({
      text: cutEscaped(l.name, 80),
      onClick: { openLink: { url: l.url } },
    }));
    if (buttons.length) widgets.push({ buttonList: { buttons } });
    const card = { header, sections: [{ widgets }] };
    return JSON.stringify({ text, cardsV2: [{ cardId: 'checkwall', card }] });
  };
  const empty = f.cause === null ? null : '';
  const size = (links: Link[]) => Buffer.byteLength(message(empty, links));
  const links = linksWithin(allLinks(f), GOOGLE_CHAT_MAX_BYTES - CAUSE_ROOM, size);
  const room = Math.min(CAUSE_BYTES, GOOGLE_CHAT_MAX_BYTES - MARGIN - size(links));
  const cause = f.cause === null ? null : cutEscaped(f.cause, room, escapeHtml, jsonBytes);
  return { url: config.url, headers: { ...JSON_HEADERS }, body: message(cause, links) };
};

// Google Chat (incoming webhook): a `text` line for notifications and a card
// (cardsV2) with the summary, the cause and a button per link. Card text is a
// small HTML subset, so untrusted text is HTML-escaped; in `text`, < and > become
// ‹ › so a check name cannot write a <users/all> mention. A message is at most
// 32,000 bytes: the cause is cut to fit well inside it.
import { escapeHtml } from '../message.js';
import { allLinks, chatFacts, cutEscaped, jsonBytes } from './facts.js';
import { JSON_HEADERS, type ChatDialect } from './types.js';

export const GOOGLE_CHAT_MAX_BYTES = 32_000;
const CAUSE_BYTES = 8_000;
const TEXT_MAX = 1000;

const html = (s: string, max = TEXT_MAX) => cutEscaped(s, max, escapeHtml);
export const escapeChatText = (ch: string) => (ch === '<' ? '‹' : ch === '>' ? '›' : ch);

export const googlechat: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  const widgets: unknown[] = [
    { textParagraph: { text: `${html(f.subject)} ${html(f.summary)}` } },
    { decoratedText: { topLabel: 'When', text: html(f.occurredAt) } },
  ];
  if (f.where)
    widgets.push({ decoratedText: { topLabel: 'Locations', text: html(f.where), wrapText: true } });
  if (f.cause)
    widgets.push({
      textParagraph: { text: `<b>Cause</b><br>${cutEscaped(f.cause, CAUSE_BYTES, escapeHtml, jsonBytes)}` },
    });
  const buttons = allLinks(f).map((l) => ({
    text: cutEscaped(l.name, 80),
    onClick: { openLink: { url: l.url } },
  }));
  if (buttons.length) widgets.push({ buttonList: { buttons } });
  const card = {
    header: { title: cutEscaped(`${f.title}: ${f.subject}`, 200), subtitle: 'Checkwall' },
    sections: [{ widgets }],
  };
  const text = cutEscaped(`${f.title}: ${f.subject} ${f.summary}`, TEXT_MAX, escapeChatText);
  const body = { text, cardsV2: [{ cardId: 'checkwall', card }] };
  return { url: config.url, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
};

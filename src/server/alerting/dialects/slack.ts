// Slack (incoming webhook): Block Kit (a header, the summary, the cause, a button
// per link) and a `text` fallback for notifications. Slack's limits, checked in
// test/server/alerting/dialects/chat-dialects.test.ts: 50 blocks, header text 150, section
// text 3,000, button text 75 and url 3,000. mrkdwn escapes only &, < and >.
import { allLinks, chatFacts, cutEscaped, type ChatFacts } from './facts.js';
import { JSON_HEADERS, type ChatDialect } from './types.js';

export const SLACK_LIMITS = { blocks: 50, header: 150, section: 3000, button: 75, url: 3000, text: 3000 };

const MRKDWN: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
export const escapeMrkdwn = (ch: string) => MRKDWN[ch] ?? ch;
const mrkdwn = (text: string, max = SLACK_LIMITS.section) => cutEscaped(text, max, escapeMrkdwn);
/**
 * A mrkdwn text object of escaped text. `verbatim`: without it Slack preprocesses the text,
 * linking URLs and conversation names and parsing "certain mentions" on its own
 * (https://docs.slack.dev/reference/block-kit/composition-objects/text-object).
 */
const mrkdwnText = (text: string) => ({ type: 'mrkdwn', text: mrkdwn(text), verbatim: true });
const plain = (text: string, max: number) => ({
  type: 'plain_text',
  text: cutEscaped(text, max),
  emoji: false,
});

function blocks(f: ChatFacts): unknown[] {
  const out: unknown[] = [
    { type: 'header', text: plain(`${f.title}: ${f.subject}`, SLACK_LIMITS.header) },
    { type: 'section', text: mrkdwnText(`${f.subject} ${f.summary}`) },
  ];
  const context = [`When: ${f.occurredAt}`, ...(f.where ? [`Locations: ${f.where}`] : [])];
  out.push({ type: 'context', elements: context.map(mrkdwnText) });
  // The cause is plain text: a hostile error cannot format, link or mention.
  if (f.cause) out.push({ type: 'section', text: plain(f.cause, SLACK_LIMITS.section) });
  const buttons = allLinks(f)
    .filter((l) => l.url.length <= SLACK_LIMITS.url)
    .map((l) => ({ type: 'button', text: plain(l.name, SLACK_LIMITS.button), url: l.url }));
  if (buttons.length) out.push({ type: 'actions', elements: buttons });
  return out;
}

export const slack: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  const body: Record<string, unknown> = {
    text: mrkdwn(`${f.title}: ${f.subject} ${f.summary}${f.cause ? `: ${f.cause}` : ''}`, SLACK_LIMITS.text),
    blocks: blocks(f),
  };
  if (config.channel) body['channel'] = config.channel;
  return { url: config.url, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
};

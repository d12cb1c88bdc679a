// Microsoft Teams through a Workflows (Power Automate) webhook, "Send webhook alerts
// to a channel": a message with one Adaptive Card attachment (version 1.4, which
// Teams renders), not the retired Office 365 connector MessageCard. Untrusted text
// goes in RichTextBlock TextRuns, which take no Markdown, so nothing needs escaping.
// A Teams message is at most 28 KB: the links (up to 12 addresses of 2,000 characters) are
// kept while they leave room for the cause, and the cause is cut to what is left. Teams
// shows 6 of a card's own actions and drops the rest, so the links go in ActionSets of 6.
import {
  allLinks,
  chatFacts,
  cutEscaped,
  jsonBytes,
  linksWithin,
  type Link,
  type Severity,
} from './facts.js';
import { JSON_HEADERS, type ChatDialect } from './types.js';

export const ADAPTIVE_CARD_VERSION = '1.4';
export const TEAMS_MAX_BYTES = 28 * 1024;
const CAUSE_BYTES = 8 * 1024;
/** What the links leave at least for the cause (and a margin for Teams' own envelope). */
const CAUSE_ROOM = 2 * 1024;
const MARGIN = 512;
const LINE_MAX = 1000;
/** The actions Teams shows of one set (its desktop and web clients drop the rest unseen). */
export const TEAMS_ACTIONS_SHOWN = 6;

const COLORS: Record<Severity, string> = {
  failure: 'Attention',
  degraded: 'Warning',
  recovery: 'Good',
  info: 'Default',
};

type Run = { type: 'TextRun'; text: string; [k: string]: unknown };
const run = (text: string, extra: Record<string, unknown> = {}): Run => ({ type: 'TextRun', text, ...extra });
const rich = (...inlines: Run[]) => ({ type: 'RichTextBlock', inlines });
const line = (label: string, value: string) =>
  rich(run(`${label}: `, { weight: 'Bolder' }), run(cutEscaped(value, LINE_MAX)));

function message(head: unknown[], cause: string | null, links: Link[]): string {
  const text = cause === null ? head : [...head, rich(run(cause, { fontType: 'Monospace' }))];
  const actions = links.map((l) => ({ type: 'Action.OpenUrl', title: cutEscaped(l.name, 80), url: l.url }));
  const sets = [];
  for (let i = 0; i < actions.length; i += TEAMS_ACTIONS_SHOWN)
    sets.push({ type: 'ActionSet', actions: actions.slice(i, i + TEAMS_ACTIONS_SHOWN) });
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: ADAPTIVE_CARD_VERSION,
    body: [...text, ...sets],
    msteams: { width: 'Full' },
  };
  return JSON.stringify({
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card },
    ],
  });
}

export const msteams: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  const head: unknown[] = [
    rich(
      run(cutEscaped(`${f.title}: ${f.subject}`, LINE_MAX), {
        size: 'Large',
        weight: 'Bolder',
        color: COLORS[f.severity],
      }),
    ),
    rich(run(cutEscaped(`${f.subject} ${f.summary}`, LINE_MAX))),
    line('When', f.occurredAt),
  ];
  if (f.where) head.push(line('Locations', f.where));
  const empty = f.cause === null ? null : '';
  const size = (links: Link[]) => Buffer.byteLength(message(head, empty, links));
  const links = linksWithin(allLinks(f), TEAMS_MAX_BYTES - CAUSE_ROOM, size);
  const room = Math.min(CAUSE_BYTES, TEAMS_MAX_BYTES - MARGIN - size(links));
  const cause = f.cause === null ? null : cutEscaped(f.cause, room, undefined, jsonBytes);
  return { url: config.url, headers: { ...JSON_HEADERS }, body: message(head, cause, links) };
};

// Microsoft Teams through a Workflows (Power Automate) webhook, "Send webhook alerts
// to a channel": a message with one Adaptive Card attachment (version 1.4, which
// Teams renders), not the retired Office 365 connector MessageCard. Untrusted text
// goes in RichTextBlock TextRuns, which take no Markdown, so nothing needs escaping.
// A Teams message is at most 28 KB: the cause is cut to fit well inside it.
import { allLinks, chatFacts, cutEscaped, jsonBytes, type Severity } from './facts.js';
import { JSON_HEADERS, type ChatDialect } from './types.js';

export const ADAPTIVE_CARD_VERSION = '1.4';
export const TEAMS_MAX_BYTES = 28 * 1024;
const CAUSE_BYTES = 8 * 1024;
const LINE_MAX = 1000;

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

export const msteams: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  const body: unknown[] = [
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
  if (f.where) body.push(line('Locations', f.where));
  if (f.cause)
    body.push(rich(run(cutEscaped(f.cause, CAUSE_BYTES, undefined, jsonBytes), { fontType: 'Monospace' })));
  const actions = allLinks(f).map((l) => ({
    type: 'Action.OpenUrl',
    title: cutEscaped(l.name, 80),
    url: l.url,
  }));
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: ADAPTIVE_CARD_VERSION,
    body,
    ...(actions.length ? { actions } : {}),
    msteams: { width: 'Full' },
  };
  const message = {
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card },
    ],
  };
  return { url: config.url, headers: { ...JSON_HEADERS }, body: JSON.stringify(message) };
};

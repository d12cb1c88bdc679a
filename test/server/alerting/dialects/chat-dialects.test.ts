// Each chat dialect's body against its service's documented shape and limits, with
// a hostile check name and a 10 KB cause: the cause is cut with "…" (the full one
// is one link away, the result's), nothing of the name can format, mention or
// smuggle a control byte, and every event kind renders, one this version does not
// know by its raw name. Where each limit is documented:
// - Slack: section text 3,000, fields 2,000 (https://rdrr.io/github/samterfa/rSlack/man/section_block.html,
//   after https://api.slack.com/reference/block-kit/blocks#section); header 150, button text 75 and
//   url 3,000, 50 blocks (https://docs.rs/crate/slackblocks/2.7.0/source/src/generated/constants.rs,
//   https://docs.copilotkit.ai/reference/channels/slack/renderBlockKit).
// - Mattermost: a post is at most 16,383 characters (https://github.com/bvdcode/Mattermost.NET/pull/7);
//   the body is `{ text, channel }` (https://mattermost.com/pl/incoming-webhooks).
// - Teams: a Workflows webhook takes `{ type: "message", attachments: [{ contentType:
//   "application/vnd.microsoft.card.adaptive", content }] }`
//   (https://argo-cd.readthedocs.io/en/release-3.3/operator-manual/notifications/services/teams-workflows/);
//   an AdaptiveCard needs `type` and `version` (https://learn.microsoft.com/lb-lu/adaptive-cards/schema-explorer/adaptive-card);
//   a card over 28 KB is refused (https://github.com/pnp/prompt-pulse/issues/43).
// - Discord: content 2,000; title 256, description 4,096, 25 fields, name 256, value 1,024,
//   footer 2,048, 6,000 in all (Discord's "Embed Limits",
//   https://discord.com/developers/docs/resources/message#embed-object-embed-limits, as restated by
//   https://sapphirejs.dev/docs/Documentation/api-utilities/@sapphire/discord-utilities/variables/EmbedLimits,
//   https://hexdocs.pm/kitazith/0.1.3/kitazith/embed.html).
// - Google Chat: a message is at most 32,000 bytes (https://developers.google.cn/chat/create-messages?hl=ko).
// - Telegram: text 1-4,096 characters after entities parsing (https://core.telegram.org/bots/api#sendmessage)
//   and the MarkdownV2 escapes (markdown-v2.ts; https://core.telegram.org/bots/api#markdownv2-style).
// - ntfy: Title, Priority (1-5), Tags, Click and Actions headers (https://docs.ntfy.sh/publish/).
import { describe, expect, it } from 'vitest';
import { CHAT_SERVICES, type AlertPayload } from '../../../../src/api/schemas/index.js';
import { CHAT_DIALECTS } from '../../../../src/server/alerting/dialects/index.js';
import {
  CAUSE_END,
  CONTROL,
  EVENTS,
  HOSTILE_NAME,
  payload,
  RESULT_LINK,
  RUNBOOK,
  strings,
} from './hostile.js';
import { markdownV2Length, markdownV2Violation } from './markdown-v2.js';

const TOKEN = '123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ra';
const config = (service: (typeof CHAT_SERVICES)[number]) => ({
  url: service === 'telegram' ? 'https://api.telegram.org' : 'https://hooks.example.test/x',
  service,
  ...(service === 'telegram' ? { botToken: TOKEN, chatId: '-100123' } : {}),
});
const render = (service: (typeof CHAT_SERVICES)[number], event = 'failure', over = {}) =>
  CHAT_DIALECTS[service](payload(event, over), config(service));
const parsed = (service: (typeof CHAT_SERVICES)[number], event = 'failure') =>
  JSON.parse(render(service, event).body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('every chat dialect', () => {
  it.each(CHAT_SERVICES)('%s renders every event kind, cut, without control bytes', (service) => {
    for (const event of EVENTS) {
      const req = render(service, event);
      const texts =
        service === 'ntfy' ? [req.body, ...Object.values(req.headers)] : strings(JSON.parse(req.body));
      expect(texts.join('\n')).not.toMatch(CONTROL);
      expect(req.body).not.toContain(CAUSE_END);
      // An event kind this version does not know shows by its raw name.
      if (event === 'escalation') expect(req.body + JSON.stringify(req.headers)).toContain('escalation');
    }
    expect(render(service, 'failure').body).toContain('…');
  });
});

describe('slack', () => {
  it('is Block Kit within its limits, with a text fallback and the links as buttons', () => {
    const body = parsed('slack');
    expect(body['text']).toEqual(expect.any(String));
    expect(body['text'].length).toBeLessThanOrEqual(3000);
    const blocks = body['blocks'] as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(blocks.length).toBeLessThanOrEqual(50);
    const header = blocks.find((b) => b['type'] === 'header')!;
    expect(header['text']).toMatchObject({ type: 'plain_text' });
    expect(header['text'].text.length).toBeLessThanOrEqual(150);
    for (const b of blocks.filter((x) => x['type'] === 'section'))
      expect(b['text'].text.length).toBeLessThanOrEqual(3000);
    const cause = blocks.filter((b) => b['type'] === 'section').at(-1)!;
    expect(cause['text']).toMatchObject({ type: 'plain_text' });
    expect(cause['text'].text).toMatch(/…$/);
    // mrkdwn: &, < and > escaped, so no <!channel> and no link of the name's.
    const mrkdwn = strings(blocks).filter((s) => s.includes('Ev"il'));
    expect(mrkdwn.some((s) => s.includes('&lt;!channel&gt;'))).toBe(true);
    // And verbatim, so Slack does not link or mention on its own what the text says.
    const texts = (v: unknown): Array<Record<string, unknown>> =>
      Array.isArray(v)
        ? v.flatMap(texts)
        : v && typeof v === 'object'
          ? [
              ...((v as Record<string, unknown>)['type'] === 'mrkdwn' ? [v as Record<string, unknown>] : []),
              ...Object.values(v).flatMap(texts),
            ]
          : [];
    expect(texts(blocks).length).toBeGreaterThanOrEqual(2);
    for (const t of texts(blocks)) expect(t['verbatim']).toBe(true);
    const buttons = blocks.find((b) => b['type'] === 'actions')!['elements'] as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(buttons.map((b) => b['url'])).toEqual(expect.arrayContaining([RESULT_LINK, RUNBOOK]));
    for (const b of buttons) expect(b['text'].text.length).toBeLessThanOrEqual(75);
  });
});

describe('mattermost', () => {
  it('is Markdown text within 16,383 characters, the name escaped and unable to mention', () => {
    const body = parsed('mattermost');
    expect(body['text'].length).toBeLessThanOrEqual(16383);
    expect(body['text']).toContain('@\u200beveryone');
    expect(body['text']).toContain('\\*bold\\*');
    expect(body['text']).toContain(`[Runbook](${RUNBOOK.replace('(', '%28').replace(')', '%29')})`);
  });
});

describe('msteams', () => {
  it('is a Workflows message with one Adaptive Card 1.4 within 28 KB', () => {
    const req = render('msteams');
    expect(Buffer.byteLength(req.body)).toBeLessThanOrEqual(28 * 1024);
    const body = JSON.parse(req.body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body['type']).toBe('message');
    expect(body['attachments']).toHaveLength(1);
    expect(body['attachments'][0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = body['attachments'][0].content;
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(card.$schema).toBe('http://adaptivecards.io/schemas/adaptive-card.json');
    // Every element one Teams knows, and text only in TextRuns (no Markdown read); the links
    // in ActionSets after the text.
    const texts = card.body.filter((el: { type: string }) => el.type === 'RichTextBlock');
    for (const el of texts)
      for (const run of el.inlines) expect(run).toMatchObject({ type: 'TextRun', text: expect.any(String) });
    const sets = card.body.slice(texts.length);
    expect(sets.length).toBeGreaterThan(0);
    for (const set of sets) expect(set.type).toBe('ActionSet');
    expect(sets.flatMap((set: { actions: unknown[] }) => set.actions)).toEqual(
      expect.arrayContaining([{ type: 'Action.OpenUrl', title: 'Runbook', url: RUNBOOK }]),
    );
    expect(card.actions).toBeUndefined();
    expect(JSON.stringify(card)).not.toContain('MessageCard');
  });
});

describe('discord', () => {
  it('keeps content to 2,000 and the embed to its field limits and 6,000 in all, with no mentions', () => {
    const body = parsed('discord');
    expect(body['content'].length).toBeLessThanOrEqual(2000);
    expect(body['allowed_mentions']).toEqual({ parse: [] });
    expect(body['embeds'].length).toBeLessThanOrEqual(10);
    const e = body['embeds'][0];
    expect(e.title.length).toBeLessThanOrEqual(256);
    expect(e.description.length).toBeLessThanOrEqual(4096);
    expect(e.description).toMatch(/…$/);
    expect(e.fields.length).toBeLessThanOrEqual(25);
    for (const f of e.fields) {
      expect(f.name.length).toBeLessThanOrEqual(256);
      expect(f.value.length).toBeLessThanOrEqual(1024);
    }
    expect(e.footer.text.length).toBeLessThanOrEqual(2048);
    const total = [
      e.title,
      e.description,
      e.footer.text,
      ...e.fields.flatMap((f: { name: string; value: string }) => [f.name, f.value]),
    ];
    expect(total.join('').length).toBeLessThanOrEqual(6000);
    expect(e.url).toBe(RESULT_LINK);
    expect(body['content']).toContain('\\*bold\\*');
  });
});

describe('googlechat', () => {
  it('is text and a card within 32,000 bytes; card text HTML-escaped, text without < or >', () => {
    const req = render('googlechat');
    expect(Buffer.byteLength(req.body)).toBeLessThanOrEqual(32_000);
    const body = JSON.parse(req.body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body['text']).not.toMatch(/[<>]/);
    const card = body['cardsV2'][0].card;
    expect(card.header.title).toContain('Ev"il');
    const html = strings(card.sections).join('\n');
    expect(html).toContain('&#60;b&#62;');
    expect(html).not.toContain('<b>*bold*');
    expect(JSON.stringify(card)).toContain(RUNBOOK);
  });
});

describe('telegram', () => {
  it('posts to /bot<token>/sendMessage with MarkdownV2 every special character escaped, within 4,096', () => {
    const req = render('telegram');
    expect(req.url).toBe(`https://api.telegram.org/bot${TOKEN}/sendMessage`);
    const body = JSON.parse(req.body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body).toMatchObject({ chat_id: '-100123', parse_mode: 'MarkdownV2' });
    expect(markdownV2Length(body['text'])).toBeLessThanOrEqual(4096);
    expect(markdownV2Violation(body['text'])).toBeNull();
    for (const event of EVENTS)
      expect(markdownV2Violation(JSON.parse(render('telegram', event).body).text)).toBeNull();
    expect(body['text']).toContain('…');
    expect(body['text']).not.toContain(TOKEN);
    // Telegram makes an @username in text a mention on its own: the name's cannot be one.
    expect(body['text']).toContain('@\u200beveryone');
    expect(body['text']).not.toMatch(/@[A-Za-z0-9_]/);
  });
});

describe('ntfy', () => {
  it('posts the message (at most 4,096 bytes) with ASCII headers and a priority by severity', () => {
    const req = render('ntfy');
    expect(req.url).toBe('https://hooks.example.test/x');
    expect(Buffer.byteLength(req.body)).toBeLessThanOrEqual(4096);
    expect(req.body).toMatch(/…$/);
    for (const value of Object.values(req.headers)) expect(value).toMatch(/^[\x20-\x7e]*$/);
    const title = /^=\?UTF-8\?B\?(.*)\?=$/.exec(req.headers['x-title']!)![1]!;
    expect(Buffer.from(title, 'base64').toString('utf8')).toContain('Ev"il');
    expect(req.headers['x-click']).toBe(RESULT_LINK);
    expect(req.headers['x-actions']).toContain(`view, Result, ${RESULT_LINK}, clear=true`);
    expect(req.headers['x-actions']).toContain(
      'view, Runbook, https://wiki.example.test/runbooks/api(1)?a=1%2Cb%3B2',
    );
    expect(req.headers['x-actions']!.split('; ')).toHaveLength(3);
    const priority = (event: string) => render('ntfy', event).headers['x-priority'];
    expect([priority('failure'), priority('degraded'), priority('recovery')]).toEqual(['5', '4', '3']);
  });
});

// The most the config allows: a runbook and 10 links of 2,000 characters each
// (src/server/config/runbook-keys.ts), names of 80 wide characters, 30 long location names.
const LONGEST_URL = (i: number) =>
  `https://grafana.example.test/d/${i}?${'var-x=a&'.repeat(250)}`.slice(0, 2000);
const longest = () =>
  payload('failure', {
    runbook: LONGEST_URL(99),
    links: Array.from({ length: 10 }, (_, i) => ({ name: 'é中😀'.repeat(20), url: LONGEST_URL(i) })),
    failingLocations: Array.from({ length: 30 }, (_, i) => ({
      id: `l${i}`,
      name: `中文 ${i} ${'x'.repeat(60)}`,
    })),
  });

describe('the longest runbook and links the config allows', () => {
  it.each([
    ['msteams', 28 * 1024],
    ['googlechat', 32_000],
  ] as const)('%s stays within %i bytes, the cause and the result kept, each link whole', (service, max) => {
    const p = longest();
    const req = CHAT_DIALECTS[service](p, config(service));
    expect(Buffer.byteLength(req.body)).toBeLessThanOrEqual(max);
    expect(req.body).toContain('x_*');
    expect(req.body).toContain(RESULT_LINK);
    const urls = [RESULT_LINK, p.runbook, ...p.links.map((l) => l.url)];
    const body = JSON.parse(req.body) as unknown;
    const kept = strings(body).filter((s) => s.startsWith('https://'));
    for (const url of kept) expect(urls).toContain(url);
  });

  it('msteams shows every link kept: at most 6 actions a set, as Teams shows no more', () => {
    const p = {
      ...longest(),
      runbook: RUNBOOK,
      links: longest().links.map((l) => ({ ...l, url: 'https://example.com/' })),
    };
    type Card = { body: Array<{ type: string; actions?: unknown[] }>; actions?: unknown[] };
    const message = JSON.parse(CHAT_DIALECTS.msteams(p, config('msteams')).body) as {
      attachments: Array<{ content: Card }>;
    };
    const card = message.attachments[0]!.content;
    const sets = card.body.filter((el) => el.type === 'ActionSet');
    const actions = sets.flatMap((s) => s.actions ?? []);
    expect(actions).toHaveLength(p.links.length + 2); // the runbook, the check's links, the result
    for (const set of sets) expect(set.actions!.length).toBeLessThanOrEqual(6);
    expect(card.actions).toBeUndefined();
  });
});

describe('the longest runbook and links the config allows, in Telegram', () => {
  it('keeps the cause: a link’s address is not in the 4,096 characters Telegram counts', () => {
    const text = (JSON.parse(CHAT_DIALECTS.telegram(longest(), config('telegram')).body) as { text: string })
      .text;
    expect(markdownV2Violation(text)).toBeNull();
    expect(markdownV2Length(text)).toBeLessThanOrEqual(4096);
    expect(text).toContain('```\nx_*[]()');
    // Well past a token "…": most of what the links' addresses left.
    expect(markdownV2Length(text)).toBeGreaterThan(3000);
  });
});

describe('the longest runbook and links the config allows, in Mattermost', () => {
  it('keeps the post within 16,383 characters, the cause and the result kept', () => {
    const text = (
      JSON.parse(CHAT_DIALECTS.mattermost(longest(), config('mattermost')).body) as { text: string }
    ).text;
    expect(text.length).toBeLessThanOrEqual(16383);
    expect(text).toContain('**Cause**\nx\\_\\*');
    expect(text).toContain(`[Result](${RESULT_LINK})`);
  });
});

// A grouped message names every check (alerting/grouping.ts): 600 behind one broken balancer.
const group = () =>
  payload('failure', {
    check: {
      id: 'api-1',
      name: `600 checks failing: ${Array.from({ length: 600 }, (_, i) => `Service ${i} (eu)`).join(', ')}`,
      type: 'api',
    },
  });

describe('a group of 600 checks', () => {
  it('is an ntfy message of at most 4,096 bytes, the cause kept (over it, ntfy wants attachments)', () => {
    const req = CHAT_DIALECTS.ntfy(group(), config('ntfy'));
    expect(Buffer.byteLength(req.body)).toBeLessThanOrEqual(4096);
    expect(req.body).toContain('\n\nx_*[]()');
  });

  it('is a Mattermost post of at most 16,383 characters, the cause kept', () => {
    const text = (
      JSON.parse(CHAT_DIALECTS.mattermost(group(), config('mattermost')).body) as { text: string }
    ).text;
    expect(text.length).toBeLessThanOrEqual(16383);
    expect(text).toContain('**Cause**\nx\\_\\*');
  });
});

describe('an error with nothing left to show once cleaned', () => {
  it.each(CHAT_SERVICES.filter((s) => s !== 'ntfy'))('%s makes no blank text block of it', (service) => {
    const req = CHAT_DIALECTS[service](payload('failure', { error: '\u001b[0m \n\t' }), config(service));
    expect(strings(JSON.parse(req.body)).filter((s) => !/\S/.test(s))).toEqual([]);
  });
});

describe('a payload without runbook or links (stored by a service before them)', () => {
  it.each(CHAT_SERVICES)('%s still renders', (service) => {
    const { runbook: _r, links: _l, ...before } = payload('failure', { error: 'timeout' });
    const req = CHAT_DIALECTS[service](before as AlertPayload, config(service));
    expect(req.body + JSON.stringify(req.headers)).toContain('timeout');
    expect(req.body).not.toContain('Runbook');
  });
});

export { HOSTILE_NAME };

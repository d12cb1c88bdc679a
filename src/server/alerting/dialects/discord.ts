// Discord (webhook): `content` for the notification line and one embed (title,
// description = the cause, fields, colour). Discord's limits, checked in
// test/server/alerting/dialects/chat-dialects.test.ts: content 2,000; embed title 256,
// description 4,096, field name 256 and value 1,024, footer 2,048, and 6,000 for
// all of an embed's text together. Markdown is backslash-escaped and
// `allowed_mentions` is empty, so a check name cannot ping @everyone.
import {
  allLinks,
  backslash,
  chatFacts,
  cutEscaped,
  percentEncoded,
  type ChatFacts,
  type Severity,
} from './facts.js';
import { JSON_HEADERS, type ChatDialect } from './types.js';

export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  fields: 25,
  total: 6000,
};
const COLORS: Record<Severity, number> = {
  failure: 0xd92b2b,
  degraded: 0xe8a317,
  recovery: 0x2e9e44,
  info: 0x5865f2,
};

export const escapeDiscord = backslash('\\`*_~|>#-[]()<:@');
const esc = (s: string, max: number) => cutEscaped(s, max, escapeDiscord);
const urlIn = (u: string) => percentEncoded(u, '()');

function fields(f: ChatFacts) {
  const links = allLinks(f).map((l) => `[${esc(l.name, 80)}](${urlIn(l.url)})`);
  const out = [{ name: 'When', value: f.occurredAt, inline: true }];
  if (f.where) out.push({ name: 'Locations', value: esc(f.where, DISCORD_LIMITS.fieldValue), inline: true });
  // Whole links or none: a cut one would not open.
  let value = '';
  for (const l of links) {
    const next = value ? `${value} · ${l}` : l;
    if (next.length <= DISCORD_LIMITS.fieldValue) value = next;
  }
  if (value) out.push({ name: 'Links', value, inline: false });
  return out;
}

export const discord: ChatDialect = (p, config) => {
  const f = chatFacts(p);
  const title = esc(`${f.title}: ${f.subject}`, DISCORD_LIMITS.title);
  const footer = { text: 'Checkwall' };
  const embedFields = fields(f);
  const used = [title, footer.text, ...embedFields.flatMap((x) => [x.name, x.value])].join('').length;
  const room = Math.min(DISCORD_LIMITS.description, DISCORD_LIMITS.total - used);
  const embed: Record<string, unknown> = {
    title,
    color: COLORS[f.severity],
    fields: embedFields,
    footer,
    timestamp: f.occurredAt,
  };
  if (f.cause) embed['description'] = esc(f.cause, room);
  if (f.result) embed['url'] = f.result;
  const content = esc(`${f.title}: ${f.subject} ${f.summary}`, DISCORD_LIMITS.content);
  const body = { content, embeds: [embed], allowed_mentions: { parse: [] } };
  return { url: config.url, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
};

// A WEBHOOK template (docs/alerts.md, "Template variables"): the user's mustache body
// (logic-less, no partials, so no file access and no loops beyond the lists the view
// holds), escaped for its content type. Checked when a channel is loaded or created
// (templateProblems): every name against the one table (template-variables.ts), then
// a sample of each event kind rendered and parsed as the content type says.
import Mustache from 'mustache';
import type { AlertEvent, AlertPayload } from '../api/schemas/index.js';
import { TEMPLATE_VARIABLES, templateView, type Shape } from './template-variables.js';

/** Every event kind, for the samples: a kind added to the wire and not here does not compile. */
const EVENT_KINDS = Object.keys({
  failure: 1,
  recovery: 1,
  degraded: 1,
  reminder: 1,
  test: 1,
  certificate: 1,
  acknowledgement: 1,
  location: 1,
  'location-recovery': 1,
  'degraded-end': 1,
  'certificate-end': 1,
} satisfies Record<AlertEvent, 1>) as AlertEvent[];

export const TEMPLATE_OUTPUT_MAX_BYTES = 64 * 1024;
export const DEFAULT_CONTENT_TYPE = 'application/json';

const mediaOf = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();
const isJson = (media: string) => media === 'application/json' || media.endsWith('+json');
const FORM = 'application/x-www-form-urlencoded';

/** How a value is escaped into the body: JSON string escaping, form encoding, or as is. */
export function escaperFor(contentType: string): (value: unknown) => string {
  const media = mediaOf(contentType);
  if (isJson(media)) return (v) => JSON.stringify(String(v)).slice(1, -1);
  if (media === FORM) return (v) => encodeURIComponent(String(v)).replace(/%20/g, '+');
  return (v) => String(v);
}

export function renderTemplate(template: string, contentType: string, p: AlertPayload, id: string): string {
  return Mustache.render(template, templateView(p, id), {}, { escape: escaperFor(contentType) });
}

type Scope = { [name: string]: Shape } | 'value';
type Token = [string, string, number, number, Token[]?];

/** What `name` (dotted) is in the innermost scope that has its first part; undefined when none. */
function resolve(name: string, scopes: readonly Scope[]): Shape | undefined {
  if (name === '.') return 'value';
  const [head, ...rest] = name.split('.');
  for (let i = scopes.length - 1; i >= 0; i--) {
    const scope = scopes[i]!;
    if (scope === 'value' || !(head! in scope)) continue;
    let shape: Shape | undefined = scope[head!];
    for (const part of rest)
      shape = shape && shape !== 'value' && !('list' in shape) ? shape[part] : undefined;
    return shape;
  }
  return undefined;
}

function walk(tokens: readonly Token[], scopes: Scope[], problems: string[]): void {
  for (const [type, name, , , children] of tokens) {
    if (type === '>') problems.push(`partials ({{> ${name}}}) are not supported`);
    if (type !== 'name' && type !== '&' && type !== '#' && type !== '^') continue;
    const shape = resolve(name, scopes);
    if (shape === undefined) {
      problems.push(`unknown variable "${name}" (docs/alerts.md, "Template variables")`);
      continue;
    }
    if (type !== '#' && type !== '^') continue;
    const inner: Scope =
      shape === 'value' ? 'value' : 'list' in shape ? (shape.list as Scope) : (shape as Scope);
    walk(children ?? [], type === '#' ? [...scopes, inner] : scopes, problems);
  }
}

/** A sample payload of each event kind, with a name and an error a careless template would break on. */
function samples(): AlertPayload[] {
  const hostile = 'Quote " backslash \\ line\nbreak {{braces}} & <b>';
  return EVENT_KINDS.map((event) => ({
    event,
    deliveryId: 'sample-delivery',
    alertId: ['test', 'degraded', 'degraded-end', 'certificate', 'certificate-end'].includes(event)
      ? null
      : 'sample-alert',
    check: event === 'test' ? null : { id: 'sample', name: hostile, type: 'api' },
    status: event === 'test' ? null : event === 'recovery' ? 'passing' : 'failing',
    failingLocations: event === 'failure' ? [{ id: 'eu', name: hostile }] : [],
    error: event === 'test' ? null : hostile,
    resultId: null,
    incidentId: null,
    occurredAt: '2026-01-01T00:00:00.000Z',
    link: null,
    runbook: event === 'test' ? null : 'https://wiki.example.com/runbook?a=1&b="2"',
    links: [{ name: hostile, url: 'https://example.com/' }],
    channel: { id: 1, name: hostile },
  }));
}

function parseAs(contentType: string, body: string): string | null {
  if (!isJson(mediaOf(contentType))) return null;
  try {
    JSON.parse(body);
    return null;
  } catch (error) {
    return `is not valid JSON: ${(error as Error).message}`;
  }
}

/** What is wrong with a template, each problem a sentence; [] when it is fine. */
export function templateProblems(template: string, contentType = DEFAULT_CONTENT_TYPE): string[] {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(template) as unknown as Token[];
  } catch (error) {
    return [`does not parse: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  walk(tokens, [TEMPLATE_VARIABLES], problems);
  if (problems.length > 0) return problems;
  for (const sample of samples()) {
    const body = renderTemplate(template, contentType, sample, sample.deliveryId);
    const wrong = parseAs(contentType, body);
    if (wrong) return [`rendered for a ${sample.event} event, the body ${wrong}`];
    if (Buffer.byteLength(body) > TEMPLATE_OUTPUT_MAX_BYTES)
      return [`rendered for a ${sample.event} event, the body is more than 64 KB`];
  }
  return [];
}

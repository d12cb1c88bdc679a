// WEBHOOK templates (docs/alerts.md, "Template variables"): escaping by content type
// with a hostile check name, and the checks at load (every name against the table,
// then a sample of each event kind rendered and parsed).
import { describe, expect, it } from 'vitest';
import type { AlertPayload } from '../../src/api/schemas/index.js';
import { renderTemplate, templateProblems } from '../../src/domain/webhook-template.js';

const NAME = 'He said "hi" \\ then\nleft {{check.id}}';
const payload: AlertPayload = {
  event: 'failure',
  deliveryId: 'd-1',
  alertId: 'a-1',
  check: { id: 'shop', name: NAME, type: 'api' },
  status: 'failing',
  failingLocations: [{ id: 'eu', name: 'Frankfurt' }],
  error: 'HTTP 500',
  resultId: 'r-1',
  incidentId: 'i-1',
  occurredAt: '2026-11-28T10:00:00.000Z',
  link: null,
  runbook: 'https://wiki.example.test/shop',
  links: [{ name: 'Grafana', url: 'https://g.example.test/' }],
  channel: { id: 1, name: 'hook' },
};

describe('a webhook template', () => {
  it('escapes values as JSON strings for application/json, so a hostile name stays one string', () => {
    const body = renderTemplate(
      '{"text": "{{check.name}} at {{location.name}}", "links": [{{#links}}"{{url}}"{{/links}}], "rb": "{{runbook}}"}',
      'application/json',
      payload,
      'd-1',
    );
    expect(JSON.parse(body)).toEqual({
      text: `${NAME} at Frankfurt`,
      links: ['https://g.example.test/'],
      rb: 'https://wiki.example.test/shop',
    });
  });

  it('form-encodes for application/x-www-form-urlencoded and leaves text/plain as is', () => {
    const form = renderTemplate(
      'name={{check.name}}&kind={{event.kind}}',
      'application/x-www-form-urlencoded',
      payload,
      'd',
    );
    expect(new URLSearchParams(form).get('name')).toBe(NAME);
    expect(renderTemplate('{{check.name}}', 'text/plain', payload, 'd')).toBe(NAME);
  });

  it('is refused naming an unknown variable, a partial, or a body that is not JSON for some event', () => {
    expect(templateProblems('{"a": "{{check.nmae}}"}')).toEqual([
      'unknown variable "check.nmae" (docs/alerts.md, "Template variables")',
    ]);
    expect(templateProblems('{{> other}}')[0]).toContain('partials');
    // A raw value breaks the JSON once a name holds a quote: the sample catches it.
    expect(templateProblems('{"a": "{{{check.name}}}"}')[0]).toMatch(
      /^rendered for a failure event, the body is not valid JSON/,
    );
    // A name null for the test event is still a name: fine inside a section.
    expect(templateProblems('{"a": "{{#check}}{{name}}{{/check}}{{heartbeat.exitCode}}"}')).toEqual([]);
    expect(templateProblems('{{#links}}{{name}}{{/links}}', 'text/plain')).toEqual([]);
  });
});

// Every event kind through every WEBHOOK format (docs/alerts.md, "Webhook formats"),
// with the hostile name and the 10 KB cause of hostile.ts: each request passes the
// provider's published rules (test/helpers/providers.ts cites the pages), long text
// is cut with "…" at the provider's limit, no control byte survives, and an event a
// provider has no use for is skipped with why, never refused.
import { describe, expect, it } from 'vitest';
import type { AlertPayload } from '../../../../src/api/schemas/index.js';
import { DIALECTS } from '../../../../src/server/alerting/dialects/index.js';
import { PAGERDUTY_LIMITS } from '../../../../src/server/alerting/dialects/pagerduty.js';
import type {
  DialectOutcome,
  DialectRequest,
  WebhookSettings,
} from '../../../../src/server/alerting/dialects/types.js';
import type { Delivery } from '../../../../src/server/alerting/senders/types.js';
import { asSeen, opsgenieProblems, pagerdutyProblems } from '../../../helpers/providers.js';
import { CAUSE_END, CONTROL, EVENTS, HOSTILE_NAME, payload, strings } from './hostile.js';

const NOW = Date.parse('2026-01-01T00:00:30.000Z');

function deliver(format: keyof typeof DIALECTS, event: string, extra: Partial<WebhookSettings> = {}) {
  const config: WebhookSettings = {
    url: 'https://receiver.example.test/base',
    method: 'POST',
    format,
    ...extra,
  };
  const delivery = {
    id: 'd-1',
    payload: payload(event, event === 'test' ? ({ alertId: null } as Partial<AlertPayload>) : {}),
    channel: { id: 1, accountId: 'acme', name: 'pager', type: 'WEBHOOK', config },
  } as unknown as Delivery;
  return DIALECTS[format](delivery, config, NOW);
}

function request(outcome: DialectOutcome): DialectRequest {
  if (!('body' in outcome)) throw new Error(`expected a request, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const bodyOf = (outcome: DialectOutcome) => JSON.parse(request(outcome).body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('every event kind through every WEBHOOK format', () => {
  it.each(EVENTS)('pagerduty: %s is a valid Events API v2 request, its summary cut at 1,024', (event) => {
    const body = bodyOf(deliver('pagerduty', event, { routingKey: 'R0UT1NG' }));
    expect(pagerdutyProblems(body)).toEqual([]);
    const expected =
      event === 'recovery' ? 'resolve' : event === 'acknowledgement' ? 'acknowledge' : 'trigger';
    expect(body['event_action']).toBe(expected);
    expect(strings(body).join('\n')).not.toMatch(CONTROL);
    if (expected !== 'trigger') return;
    const summary = body['payload'].summary as string;
    expect(summary).toHaveLength(PAGERDUTY_LIMITS.summary);
    expect(summary.endsWith('…')).toBe(true);
    expect(summary).not.toContain(CAUSE_END);
  });

  it.each(EVENTS)('opsgenie: %s passes the Alert API rules', (event) => {
    const req = request(
      deliver('opsgenie', event, { apiKey: 'genie-key', url: 'https://api.eu.opsgenie.com' }),
    );
    expect(opsgenieProblems(asSeen(req))).toEqual([]);
    expect(req.method).toBe('POST');
    if (req.body) expect(strings(JSON.parse(req.body)).join('\n')).not.toMatch(CONTROL);
  });

  it.each(EVENTS)(
    'alertmanager: %s keeps the fixed labels, or is skipped when it has no meaning',
    (event) => {
      const outcome = deliver('alertmanager', event, { repostSeconds: 5 });
      if (event === 'acknowledgement') {
        expect(outcome).toEqual({ skip: expect.stringContaining('no acknowledgement') });
        return;
      }
      const req = request(outcome);
      expect(req.url).toBe('https://receiver.example.test/base/api/v2/alerts');
      const [alert] = JSON.parse(req.body) as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(Object.keys(alert!['labels']).sort()).toEqual(['account', 'alertname', 'check_id', 'severity']);
      expect(alert!['labels']).toMatchObject({ account: 'acme', check_id: 'api-1' });
      const endsAt = Date.parse(alert!['endsAt']);
      const open = ['failure', 'reminder', 'degraded', 'certificate'].includes(event);
      expect(endsAt).toBe(open ? NOW + 15_000 : NOW);
    },
  );

  it.each(EVENTS)('template: %s renders every variable and parses as JSON', (event) => {
    const template = JSON.stringify({
      kind: '{{event.kind}}',
      check: '{{#check}}{{name}}{{/check}}',
      where: '{{#location}}{{all}}{{/location}}',
      cause: '{{#result}}{{error}}{{/result}}',
      alert: '{{#alert}}{{id}}{{/alert}}',
      runbook: '{{runbook}}',
      links: '{{#links}}{{name}} {{url}};{{/links}}',
      code: '{{#heartbeat}}{{exitCode}}{{/heartbeat}}',
    });
    const body = bodyOf(deliver('template', event, { template }));
    expect(body['kind']).toBe(event);
    expect(body['check']).toBe(HOSTILE_NAME);
    expect(body['alert']).toBe(event === 'test' ? '' : 'a-1');
  });
});

describe('the heartbeat template variable', () => {
  it('carries a failed job run’s exit code, duration and output tail, and is empty otherwise', () => {
    const template =
      '{"code": "{{heartbeat.exitCode}}", "ms": "{{heartbeat.durationMs}}", "tail": "{{heartbeat.outputTail}}"}';
    const config: WebhookSettings = {
      url: 'https://r.example.test',
      method: 'POST',
      format: 'template',
      template,
    };
    const heartbeat = { exitCode: 3, durationMs: 1234, outputTail: 'disk "full"\n' };
    const render = (p: AlertPayload) =>
      JSON.parse(
        request(DIALECTS.template({ id: 'd', payload: p, channel: {} } as unknown as Delivery, config, NOW))
          .body,
      ) as Record<string, string>;
    expect(render(payload('failure', { heartbeat }))).toEqual({
      code: '3',
      ms: '1234',
      tail: 'disk "full"\n',
    });
    expect(render(payload('failure'))).toEqual({ code: '', ms: '', tail: '' });
  });
});

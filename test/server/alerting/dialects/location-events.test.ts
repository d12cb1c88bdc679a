// A location outage's two events (docs/alerts.md, "A broken location") through every
// WEBHOOK format and chat dialect: no check and no alert, so the outage's id keeps the
// provider's alert (PagerDuty's dedup_key, Opsgenie's alias, Alertmanager's fixed labels),
// the page names the location and its cause, and its recovery closes what it opened.
import { describe, expect, it } from 'vitest';
import { CHAT_SERVICES, type AlertPayload } from '../../../../src/api/schemas/index.js';
import { CHAT_DIALECTS, DIALECTS } from '../../../../src/server/alerting/dialects/index.js';
import type { DialectOutcome, WebhookSettings } from '../../../../src/server/alerting/dialects/types.js';
import type { Delivery } from '../../../../src/server/alerting/senders/types.js';
import { asSeen, opsgenieProblems, pagerdutyProblems } from '../../../helpers/providers.js';
import { CONTROL, payload, strings } from './hostile.js';

const NOW = Date.parse('2026-01-01T00:00:30.000Z');
const OUTAGE = 'f0e1d2c3-outage';
const CAUSE =
  'Singapore: 12 of 14 checks failing since 03:12 UTC while they pass elsewhere; the location\u001b[31m’s network is the likely cause';

const outagePayload = (event: 'location' | 'location-recovery'): AlertPayload =>
  payload(event, {
    alertId: null,
    check: null,
    status: null,
    error: null,
    resultId: null,
    incidentId: null,
    link: null,
    runbook: null,
    links: [],
    failingLocations: [{ id: 'ap-south', name: 'Singapore' }],
    location: { id: 'ap-south', name: 'Singapore' },
    outageId: OUTAGE,
    since: '2026-01-01T03:12:00.000Z',
    failing: 12,
    total: 14,
    cause: CAUSE,
  });

function deliver(format: keyof typeof DIALECTS, event: 'location' | 'location-recovery', extra = {}) {
  const config: WebhookSettings = {
    url: 'https://receiver.example.test/base',
    method: 'POST',
    format,
    ...extra,
  };
  const delivery = {
    id: `d-${event}`,
    payload: outagePayload(event),
    channel: { id: 1, accountId: 'acme', name: 'pager', type: 'WEBHOOK', config },
  } as unknown as Delivery;
  const outcome: DialectOutcome = DIALECTS[format](delivery, config, NOW);
  if (!('body' in outcome)) throw new Error(`expected a request, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('a location outage through every dialect', () => {
  it('pagerduty: one alert keyed by the outage, triggered with its cause and resolved by its recovery', () => {
    const down = JSON.parse(deliver('pagerduty', 'location', { routingKey: 'R0UT1NG' }).body);
    const back = JSON.parse(deliver('pagerduty', 'location-recovery', { routingKey: 'R0UT1NG' }).body);
    expect(pagerdutyProblems(down)).toEqual([]);
    expect(pagerdutyProblems(back)).toEqual([]);
    expect(down).toMatchObject({ event_action: 'trigger', dedup_key: OUTAGE });
    expect(down.payload).toMatchObject({ severity: 'critical', source: 'Singapore', component: 'Singapore' });
    expect(down.payload.summary).toContain(
      '[LOCATION DOWN] Singapore: 12 of 14 checks failing since 03:12 UTC while they pass elsewhere',
    );
    expect(strings(down).join('\n')).not.toMatch(CONTROL);
    expect(back).toEqual({ routing_key: 'R0UT1NG', event_action: 'resolve', dedup_key: OUTAGE });
  });

  it('opsgenie: created and closed by the outage id as alias', () => {
    const settings = { apiKey: 'genie-key', url: 'https://api.eu.opsgenie.com' };
    for (const event of ['location', 'location-recovery'] as const) {
      const req = deliver('opsgenie', event, settings);
      expect(opsgenieProblems(asSeen(req))).toEqual([]);
    }
    const down = deliver('opsgenie', 'location', settings);
    expect(JSON.parse(down.body)).toMatchObject({ alias: OUTAGE, priority: 'P1', entity: 'Singapore' });
    const back = deliver('opsgenie', 'location-recovery', settings);
    expect(back.url).toBe(`https://api.eu.opsgenie.com/v2/alerts/${OUTAGE}/close?identifierType=alias`);
  });

  it('alertmanager: one alert with fixed labels, ended by the recovery', () => {
    const [down] = JSON.parse(deliver('alertmanager', 'location', { repostSeconds: 5 }).body);
    const [back] = JSON.parse(deliver('alertmanager', 'location-recovery', { repostSeconds: 5 }).body);
    const labels = {
      alertname: 'CheckwallLocationDown',
      account: 'acme',
      severity: 'critical',
      location_id: 'ap-south',
    };
    expect(down.labels).toEqual(labels);
    expect(back.labels).toEqual(labels);
    expect(Date.parse(down.endsAt)).toBe(NOW + 15_000);
    expect(Date.parse(back.endsAt)).toBe(NOW);
    expect(down.annotations.description).toContain('12 of 14 checks failing');
  });

  it('template: the outage and its location are variables', () => {
    const template = JSON.stringify({
      kind: '{{event.kind}}',
      where: '{{#location}}{{id}} {{name}}{{/location}}',
      outage: '{{#outage}}{{id}} {{failing}}/{{total}} since {{since}}{{/outage}}',
      check: '{{#check}}{{name}}{{/check}}',
    });
    const body = JSON.parse(deliver('template', 'location', { template }).body);
    expect(body).toEqual({
      kind: 'location',
      where: 'ap-south Singapore',
      outage: `${OUTAGE} 12/14 since 2026-01-01T03:12:00.000Z`,
      check: '',
    });
  });

  it.each(CHAT_SERVICES)('%s names the location, its cause, and that it is back', (service) => {
    const config = {
      url: service === 'telegram' ? 'https://api.telegram.org' : 'https://hooks.example.test/x',
      service,
      ...(service === 'telegram'
        ? { botToken: '123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ra', chatId: '-1' }
        : {}),
    };
    const down = CHAT_DIALECTS[service](outagePayload('location'), config);
    const back = CHAT_DIALECTS[service](outagePayload('location-recovery'), config);
    const text = (req: { body: string; headers: Record<string, string> }) =>
      service === 'ntfy'
        ? [req.body, ...Object.values(req.headers)].join('\n')
        : strings(JSON.parse(req.body)).join('\n');
    expect(text(down)).toContain('Location down');
    expect(text(down)).toContain('Singapore');
    expect(text(down)).toMatch(/12 of 14 checks failing/);
    expect(text(down)).not.toMatch(CONTROL);
    expect(text(back)).toContain('Location back');
  });
});

// Which channels hear an acknowledgement (docs/alerts.md, "The acknowledgement event"):
// every WEBHOOK format but Alertmanager's, and CHAT; never a person's mail, SMS or phone.
// A `degraded-end` or a `certificate-end` only the tools that keep an alert open ("The tools
// that keep an alert open"). Every other event kind goes to every channel type.
import { describe, expect, it } from 'vitest';
import { ALERT_EVENTS } from '../../../src/api/schemas/index.js';
import { hearsEvent } from '../../../src/server/alerting/audience.js';

const channel = (type: string, format?: string) => ({ type, config: format ? { format } : {} }) as never;

describe('who hears an acknowledgement', () => {
  it.each([
    ['WEBHOOK', undefined, true],
    ['WEBHOOK', 'checkwall', true],
    ['WEBHOOK', 'pagerduty', true],
    ['WEBHOOK', 'opsgenie', true],
    ['WEBHOOK', 'template', true],
    ['WEBHOOK', 'alertmanager', false],
    ['CHAT', undefined, true],
    ['EMAIL', undefined, false],
    ['SMS', undefined, false],
    ['PHONE', undefined, false],
  ])('%s %s: %s', (type, format, hears) => {
    expect(hearsEvent(channel(type, format), 'acknowledgement')).toBe(hears);
  });

  it.each([
    ['WEBHOOK', 'pagerduty', true],
    ['WEBHOOK', 'opsgenie', true],
    ['WEBHOOK', 'alertmanager', true],
    ['WEBHOOK', undefined, false],
    ['WEBHOOK', 'checkwall', false],
    ['WEBHOOK', 'template', false],
    ['CHAT', undefined, false],
    ['EMAIL', undefined, false],
    ['SMS', undefined, false],
    ['PHONE', undefined, false],
  ])('a degraded-end and a certificate-end: %s %s: %s', (type, format, hears) => {
    expect(hearsEvent(channel(type, format), 'degraded-end')).toBe(hears);
    expect(hearsEvent(channel(type, format), 'certificate-end')).toBe(hears);
  });

  it('every other event kind reaches every channel type', () => {
    const heardByFewer = new Set(['acknowledgement', 'degraded-end', 'certificate-end']);
    for (const event of ALERT_EVENTS.filter((e) => !heardByFewer.has(e)))
      for (const type of ['WEBHOOK', 'CHAT', 'EMAIL', 'SMS', 'PHONE'])
        expect(hearsEvent(channel(type, 'alertmanager'), event)).toBe(true);
  });
});

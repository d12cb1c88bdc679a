// The words of a `certificate` notification (issue 35): which certificate, when it
// expires and where it was seen, in every form a channel sends.
import { describe, expect, it } from 'vitest';
import type { AlertPayload } from '../../../src/api/schemas/index.js';
import { htmlBody, oneLine, speech, subject, textBody } from '../../../src/server/alerting/message.js';

const payload = (certificate: NonNullable<AlertPayload['certificate']>): AlertPayload => ({
  event: 'certificate',
  deliveryId: 'd-1',
  alertId: null,
  check: { id: 'shop', name: 'Shop', type: 'api' },
  status: 'passing',
  failingLocations: [],
  error: null,
  resultId: 'r-1',
  incidentId: null,
  occurredAt: '2026-11-27T10:00:00.000Z',
  link: null,
  runbook: null,
  links: [],
  channel: { id: 1, name: 'Ops mail' },
  certificate,
});

const leaf = {
  subject: 'CN=shop.example.com',
  issuer: 'CN=R11',
  validTo: '2026-12-04T10:00:00.000Z',
  daysRemaining: 7,
  chain: false,
  threshold: 14,
  location: { id: 'eu-west', name: 'Frankfurt' },
};

describe('a certificate notification', () => {
  it('names the certificate, its expiry and the location in the one-line, mail and spoken forms', () => {
    const p = payload(leaf);
    expect(subject(p)).toBe('[CERTIFICATE] Shop');
    expect(oneLine(p)).toBe(
      '[CERTIFICATE] Shop has the certificate CN=shop.example.com (issued by CN=R11) that expires in 7 days, on 2026-12-04T10:00:00.000Z, as seen from Frankfurt',
    );
    expect(textBody(p)).toContain('Expires:   2026-12-04T10:00:00.000Z (CN=shop.example.com)');
    expect(textBody(p)).toContain('Seen at:   Frankfurt (eu-west)');
    expect(htmlBody(p)).toContain('as seen from Frankfurt');
    expect(speech(p)).toContain('expires in 7 days');
  });

  it('says when an intermediate of the chain expires first, and when it is within a day or past', () => {
    expect(oneLine(payload({ ...leaf, chain: true, daysRemaining: 0 }))).toContain(
      'has an intermediate certificate in the chain of CN=shop.example.com (issued by CN=R11) that expires in less than a day',
    );
    expect(oneLine(payload({ ...leaf, daysRemaining: -1 }))).toContain(
      'that expired on 2026-12-04T10:00:00.000Z',
    );
  });

  it('escapes a hostile subject in the HTML mail', () => {
    expect(htmlBody(payload({ ...leaf, subject: 'CN=<script>x</script>' }))).not.toContain('<script>');
  });
});

// A certificate warning through an Alertmanager channel (docs/alerts.md, "The tools that keep
// an alert open" and "Alertmanager"; docs/certificates.md, "The certificate event"):
// Alertmanager resolves an alert at its endsAt (3 × repostSeconds after a post), so while the
// warning stands its CheckwallCertificateExpiring is posted again; it stands while any location
// still shows the old certificate, a failed run (no certificate) changing nothing, and the
// certificate-end resolves it once the last location shows the renewed one. On the fake clock;
// a loopback receiver in Alertmanager's place. Where a warning stands is read from storage
// after a restart: it is posted again, and ended, by the service started anew.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  alertConfig,
  alertmanagerHook,
  closedAfterEach,
  notifications,
  startAlertService,
  startReceivers,
} from '../../helpers/alerting.js';
import { advanceBy, createFakeClock } from '../../helpers/fake-clock.js';

const DAY_MS = 86_400_000;
const held = closedAfterEach();

const certificateOf = (serialNumber: string, validTo: number) => ({
  subject: 'CN=shop.example.com',
  issuer: 'CN=R11',
  serialNumber,
  validFrom: new Date(validTo - 90 * DAY_MS).toISOString(),
  validTo: new Date(validTo).toISOString(),
  daysRemaining: 0,
  chainValidTo: null,
  chainDaysRemaining: null,
});

describe('a certificate warning in Alertmanager', () => {
  it('is posted again while any location shows the old certificate, and resolved once when the last is renewed', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const am = alertmanagerHook(r, ['c1']);
    const s = (held.svc = await startAlertService(alertConfig(r, { channels: [am.channel] }), clock));
    const posted = () => am.posted('CheckwallCertificateExpiring');
    const old = certificateOf('0LD', clock.now() + 10 * DAY_MS);
    const renewed = certificateOf('NEW', clock.now() + 90 * DAY_MS);
    let n = 0;
    const run = (location: string, certificate?: ReturnType<typeof certificateOf>) =>
      s.seed('c1', [certificate ? 'success' : 'failed'], {
        location,
        endAt: clock.now() + ++n * 100,
        ...(certificate ? { certificate } : {}),
      });

    await run('eu-west', old);
    await run('us-east', old);
    await expect.poll(() => posted().length).toBe(1);
    const warnedAt = clock.now();

    // 20 s on: Alertmanager would have resolved the first post 15 s after it.
    await advanceBy(clock, 20_000, { stepMs: 1_000 });
    await expect.poll(() => posted().length).toBeGreaterThanOrEqual(3);
    expect(posted().at(-1)!.labels).toMatchObject({
      alertname: 'CheckwallCertificateExpiring',
      check_id: 'c1',
      severity: 'warning',
    });
    expect(Date.parse(posted().at(-1)!.endsAt)).toBeGreaterThan(warnedAt + 20_000);

    // Renewed at one location; the other still serves the old one, and then fails a run
    // without a certificate: the warning stands, posted again.
    await run('eu-west', renewed);
    await run('us-east');
    const before = posted().length;
    await advanceBy(clock, 10_000, { stepMs: 1_000 });
    await expect.poll(() => posted().length).toBeGreaterThan(before);
    expect(Date.parse(posted().at(-1)!.endsAt)).toBeGreaterThan(clock.now());

    // The last location renewed: the certificate-end resolves it, and nothing posts it again.
    await run('us-east', renewed);
    await expect.poll(() => Date.parse(posted().at(-1)!.endsAt)).toBe(clock.now());
    const resolvedAfter = posted().length;
    await advanceBy(clock, 20_000, { stepMs: 1_000 });
    expect(posted()).toHaveLength(resolvedAfter);
    const events = (await notifications(s)).map((x) => x.event).sort();
    expect(events).toEqual(['certificate', 'certificate-end']);
  });

  it('stands across a restart: posted again by the new start, and ended by it', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const am = alertmanagerHook(r, ['c1']);
    const checks = { c1: { target: 'https://127.0.0.1:9/health' } };
    const config = alertConfig(r, { channels: [am.channel], checks });
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-cert-')), 'checkwall.db');
    let s = (held.svc = await startAlertService(config, clock, { dbPath }));
    const posted = () => am.posted('CheckwallCertificateExpiring');
    const old = certificateOf('0LD', clock.now() + 10 * DAY_MS);
    await s.seed('c1', ['success'], { certificate: old, endAt: clock.now() });
    await expect.poll(() => posted().length).toBe(1);
    await s.close();

    s = held.svc = await startAlertService(config, clock, { dbPath });
    await advanceBy(clock, 10_000, { stepMs: 1_000 });
    await expect.poll(() => posted().length).toBeGreaterThanOrEqual(2);
    const renewed = certificateOf('NEW', clock.now() + 90 * DAY_MS);
    await s.seed('c1', ['success'], { certificate: renewed, endAt: clock.now() });
    await expect.poll(() => Date.parse(posted().at(-1)!.endsAt)).toBe(clock.now());
  });
});

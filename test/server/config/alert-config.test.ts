// The alerting keys of the service config: documented defaults, strict objects.
import { describe, expect, it } from 'vitest';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { testConfig } from '../../helpers/service.js';

const withCheck = (alerts: unknown) => {
  const config = testConfig(1) as unknown as { accounts: Array<{ checks: Array<Record<string, unknown>> }> };
  config.accounts[0]!.checks[0]!['alerts'] = alerts;
  return config;
};

describe('alerting config', () => {
  it('gives every check the documented alert defaults, and the service its delivery defaults', () => {
    const config = ServiceConfigSchema.parse(withCheck(undefined));
    expect(config.accounts[0]!.checks[0]!.alerts).toEqual({
      afterFailures: 2,
      onRecovery: true,
      onDegraded: false,
      remindEveryMinutes: 0,
      maxReminders: 3,
      minIntervalSeconds: 60,
      certificateExpiryDays: [14, 7, 1],
    });
    expect(config.alertDelivery).toEqual({
      attemptTimeoutSeconds: 10,
      maxAttempts: 6,
      retryBaseSeconds: 60,
      retryMaxSeconds: 960,
      allowPrivateNetworks: false,
      allowedNetworks: [],
    });
    const sms = ServiceConfigSchema.parse({ sms: { accountSid: 'AC1', authToken: 't', from: '+1555' } }).sms;
    expect(sms?.baseUrl).toBe('https://api.twilio.com');
  });

  it('takes certificateExpiryDays as whole days from 1 to 365 (issue 35)', () => {
    const days = (v: unknown) => ServiceConfigSchema.safeParse(withCheck({ certificateExpiryDays: v }));
    expect(days([30, 7]).success).toBe(true);
    expect(days([]).success).toBe(true);
    expect(days([0]).error?.issues[0]?.path).toEqual([
      'accounts',
      0,
      'checks',
      0,
      'alerts',
      'certificateExpiryDays',
      0,
    ]);
    expect(days([1.5]).success).toBe(false);
  });

  it('rejects unknown keys and bad values with a clear message', () => {
    const bad = ServiceConfigSchema.safeParse(withCheck({ afterFailure: 3 }));
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['afterFailure'] });
    const smtp = ServiceConfigSchema.safeParse({ smtp: { url: 'http://x', from: 'a@b.c' } });
    expect(smtp.error?.issues[0]?.message).toBe('must be an smtp:// or smtps:// address');
    expect(
      ServiceConfigSchema.safeParse({ sms: { accountSid: 'a', authToken: 'b', from: 'c', extra: 1 } })
        .success,
    ).toBe(false);
    expect(ServiceConfigSchema.safeParse(withCheck({ afterFailures: 0 })).success).toBe(false);
    const config = withCheck(undefined) as unknown as { accounts: Array<Record<string, unknown>> };
    config.accounts[0]!['alertChannels'] = [
      { type: 'EMAIL', name: 'm', config: { address: 'a@b.co' }, subscriptions: { checks: ['c1', 'c9'] } },
    ];
    expect(ServiceConfigSchema.safeParse(config).error?.issues).toEqual([
      expect.objectContaining({
        path: ['accounts', 0, 'alertChannels', 0, 'subscriptions', 'checks', 1],
        message: 'no check "c9" in this account',
      }),
    ]);
  });
});

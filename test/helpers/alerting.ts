// For the alert delivery tests: a service whose channels deliver to receivers
// on loopback (an HTTP receiver for webhook and chat, a real SMTP server, a
// Twilio-shaped provider), on the fake clock when a test moves time
// (test/helpers/fake-clock.ts), and readers of the delivery log.
import { createHmac } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { afterEach } from 'vitest';
import type { AddressInfo } from 'node:net';
import {
  AlertNotificationListSchema,
  AlertPayloadSchema,
  CheckStatusListSchema,
  type AlertNotification,
  type CheckResult,
} from '../../src/api/schemas/index.js';
import { systemClock, type Clock } from '../../src/domain/clock.js';
import { ServiceConfigSchema, type ServiceConfig } from '../../src/server/config/schema.js';
import type { FakeClock } from './fake-clock.js';
import { AUTH, post } from './http.js';
import { json, startFixture, type Fixture } from './fixture.js';
import { startTestService, testConfig, type TestService } from './service.js';

export { AUTH, get, post, put } from './http.js';

export const HOOK_SECRET = 'whsec_test_signing_secret_0123456789';
export const SMS_TOKEN = 'twilio-auth-token-0123456789';
export const SMTP_PASSWORD = 'smtp-pass-0123456789';
export const HEADER_SECRET = 'Bearer header-secret-0123456789';

export interface Receivers {
  hook: Fixture;
  smtp: SmtpReceiver;
  twilio: Fixture;
  close(): Promise<void>;
}

export interface SmtpMail {
  from: string;
  to: string[];
  raw: string;
  user: string | undefined;
}

export interface SmtpReceiver {
  url: string;
  mails: SmtpMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) that keeps every message as delivered; with
 * `answerAfterMs`, it answers each message's data that long after taking it (a server
 * scanning what it was sent), refusing it with a 451 when `refuse` says so.
 */
export async function startSmtpReceiver(
  slow: { answerAfterMs: number; refuse?: () => boolean } = { answerAfterMs: 0 },
): Promise<SmtpReceiver> {
  const mails: SmtpMail[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === 'alerts' && auth.password === SMTP_PASSWORD) done(null, { user: auth.username });
      else done(new Error('bad credentials'));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const answer = () => {
          if (slow.refuse?.())
            return done(Object.assign(new Error('try again later'), { responseCode: 451 }));
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            user: session.user as string | undefined,
          });
          done();
        };
        if (slow.answerAfterMs > 0) setTimeout(answer, slow.answerAfterMs);
        else answer();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://alerts:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function startReceivers(): Promise<Receivers> {
  const hook = await startFixture((_req, res) => json(res, 200, { ok: true }));
  const twilio = await startFixture((_req, res) => json(res, 201, { sid: 'SM0001' }));
  const smtp = await startSmtpReceiver();
  return {
    hook,
    smtp,
    twilio,
    close: async () => {
      await Promise.all([hook.close(), twilio.close(), smtp.close()]);
    },
  };
}

export interface AlertConfigOptions {
  /** Per-check `alerts:` settings, by check id. */
  alerts?: Record<string, Record<string, unknown>>;
  /** Other per-check keys (target, frequency, ...), by check id. */
  checks?: Record<string, Record<string, unknown>>;
  /** Service-level keys to replace (smtp, sms: undefined to leave a transport out). */
  service?: Record<string, unknown>;
  channels?: unknown[];
  delivery?: Record<string, unknown>;
  extraChecks?: unknown[];
}

/** testConfig(3) with channels to the receivers and fast retries. */
export function alertConfig(r: Receivers, o: AlertConfigOptions = {}): ServiceConfig {
  const base = testConfig(3) as unknown as { accounts: Array<Record<string, unknown>> };
  const account = base.accounts[0]!;
  const checks = (account['checks'] as Array<Record<string, unknown>>).map((c) => ({
    ...c,
    ...o.checks?.[c['id'] as string],
    alerts: o.alerts?.[c['id'] as string] ?? {},
  }));
  return ServiceConfigSchema.parse({
    ...base,
    smtp: { url: r.smtp.url, from: 'checkwall@example.test' },
    sms: { baseUrl: r.twilio.url, accountSid: 'AC123', authToken: SMS_TOKEN, from: '+15550000000' },
    publicUrl: 'https://checkwall.example.test',
    // The receivers are on loopback, which deliveries may not reach by default.
    alertDelivery: {
      retryBaseSeconds: 0.05,
      retryMaxSeconds: 0.4,
      allowPrivateNetworks: true,
      ...o.delivery,
    },
    ...o.service,
    accounts: [
      {
        ...account,
        checks: [...checks, ...(o.extraChecks ?? [])],
        alertChannels: o.channels ?? [hookChannel(r, { checks: ['c1'] })],
      },
      ...base.accounts.slice(1),
    ],
  });
}

export const FAR_RUNNER_TOKEN = 'runner-token-0123456789';

/**
 * alertConfig with three checks (f1-f3, 1 m) at eu-west and at a remote location `far`, whose
 * runners answer to FAR_RUNNER_TOKEN: the config of a location whose runners stop.
 */
export function farLocationConfig(r: Receivers, channel: unknown): ServiceConfig {
  const far = ['f1', 'f2', 'f3'].map((id) => ({
    id,
    name: `Far ${id}`,
    type: 'api',
    target: `http://${id}.example.test/`,
    frequency: '1m',
    locations: ['eu-west', 'far'],
  }));
  const config = alertConfig(r, { extraChecks: far, channels: [channel] });
  config.accounts[0]!.locations.push({
    id: 'far',
    name: 'Far away',
    region: 'r9',
    remote: true,
    runnerToken: FAR_RUNNER_TOKEN,
  });
  return config;
}

/** A runner of the remote location `far` asks for work (its location is back). */
export const farRunnerAsks = (svc: { url: string }) =>
  fetch(`${svc.url}/v1/runner/claim`, {
    method: 'POST',
    headers: { authorization: `Bearer ${FAR_RUNNER_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ runnerId: 'r1', waitSeconds: 0 }),
  });

export function hookChannel(r: Receivers, subscriptions: { checks?: string[]; groups?: string[] }) {
  return {
    type: 'WEBHOOK',
    name: 'Incident bot',
    signingSecret: HOOK_SECRET,
    subscriptions,
    config: {
      url: `${r.hook.url}/hook`,
      method: 'POST',
      headers: [{ key: 'Authorization', value: HEADER_SECRET }],
      queryParameters: [{ key: 'team', value: 'sre' }],
    },
  };
}

/** An alert as Alertmanager's API is posted it (the fields the tests read). */
export interface AmPosted {
  labels: Record<string, string>;
  endsAt: string;
}

/**
 * An `alertmanager` WEBHOOK channel to the hook receiver (`/am`, repostSeconds 5: a refresh
 * every 5 s of the fake clock), and the alerts of one name posted to it, in order.
 */
export function alertmanagerHook(r: Receivers, checks: string[]) {
  const channel = {
    type: 'WEBHOOK',
    name: 'alertmanager',
    subscriptions: { checks },
    config: { url: `${r.hook.url}/am`, method: 'POST', format: 'alertmanager', repostSeconds: 5 },
  };
  const posted = (alertname: string): AmPosted[] =>
    r.hook.seen
      .filter((q) => q.url === '/am/api/v2/alerts')
      .flatMap((q) => JSON.parse(q.body) as AmPosted[])
      .filter((a) => a.labels['alertname'] === alertname);
  return { channel, posted };
}

export async function startAlertService(
  config: ServiceConfig,
  clock?: FakeClock,
  more: { dbPath?: string; startScheduler?: boolean } = {},
) {
  return startTestService({ config, ...(clock ? { clock } : {}), ...more });
}

/**
 * Results for one check, a tenth of a second apart, newest last: the run path of
 * the service. A check's first call lays down 200 successes before them, so its
 * availability stays above the failing line and statuses follow the newest runs.
 */
export function runner(svc: TestService, clock: Pick<Clock, 'now'> = systemClock) {
  let n = 0;
  const started = new Set<string>();
  return async (checkId: string, statuses: Array<'success' | 'failed'>, location = 'eu-west') => {
    if (!started.has(checkId)) {
      started.add(checkId);
      const history = Array<'success'>(200).fill('success');
      await svc.seed(checkId, history, { location, endAt: clock.now() - 70_000, spacingMs: 50 });
    }
    const results: CheckResult[] = [];
    for (const status of statuses)
      results.push(
        ...(await svc.seed(checkId, [status], { location, endAt: clock.now() - 60_000 + ++n * 100 })),
      );
    return results;
  };
}

export async function notifications(svc: { url: string }, query = ''): Promise<AlertNotification[]> {
  const res = await fetch(`${svc.url}/v1/alert-notifications?limit=100&${query}`, { headers: AUTH });
  if (res.status !== 200) throw new Error(`alert-notifications answered ${res.status}: ${await res.text()}`);
  return AlertNotificationListSchema.parse(await res.json()).data;
}

export async function statusOf(svc: { url: string }, checkId: string) {
  const res = await fetch(`${svc.url}/v1/check-statuses?limit=100`, { headers: AUTH });
  return CheckStatusListSchema.parse(await res.json()).data.find((s) => s.checkId === checkId)!;
}

export function verifySignature(secret: string, body: string, header: string | string[] | undefined) {
  return header === `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The requests the hook saw, as parsed JSON payloads. */
export const hookEvents = (r: Receivers) =>
  r.hook.seen.map((s) => JSON.parse(s.body) as { event: string; deliveryId: string; reminder?: number });

/** The `certificate` events the hook saw, as the alert payload's schema reads them. */
export const certificateEvents = (r: Receivers) =>
  r.hook.seen
    .map((s) => AlertPayloadSchema.parse(JSON.parse(s.body)))
    .filter((p) => p.event === 'certificate');

/** Asks for a run of the check now (POST /v1/check-runs): the answer's status, 202 when taken. */
export const askRun = async (svc: { url: string }, checkId: string) =>
  (await post(svc, '/v1/check-runs', { checkIds: [checkId] })).status;

/**
 * The service and receivers of each test, closed after it: call once at the top of a
 * test file, and keep what a test starts in the answer (`held.svc = await ...`).
 */
export function closedAfterEach(): { svc?: TestService | undefined; receivers?: Receivers | undefined } {
  const held: { svc?: TestService | undefined; receivers?: Receivers | undefined } = {};
  afterEach(async () => {
    await held.svc?.close();
    await held.receivers?.close();
    held.svc = held.receivers = undefined;
  });
  return held;
}

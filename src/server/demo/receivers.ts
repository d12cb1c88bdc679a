// Where the demo's alerts go, on loopback, so `checkwall demo` delivers with no
// outside network: one HTTP server for the webhook (its signature checked),
// the chat hook and a stand-in of the SMS/voice provider (Twilio's REST shape,
// basic auth checked), and a small SMTP server that accepts any mail. They
// keep the last messages for anyone curious; they are the demo's only.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

export const DEMO_SIGNING_SECRET = 'whsec_demo_0123456789abcdefghijklmnop';
export const DEMO_SMS = {
  accountSid: 'ACdemo0000',
  authToken: 'demo-token-0123456789',
  from: '+15005550006',
};

export interface DemoReceivers {
  webhook: string;
  chat: string;
  twilio: string;
  smtp: string;
  /** What arrived, newest last (at most 100 of each kind). */
  received: Array<{ kind: 'webhook' | 'chat' | 'sms' | 'call' | 'email'; summary: string }>;
  close(): Promise<void>;
}

const KEEP = 100;

export async function startDemoReceivers(): Promise<DemoReceivers> {
  const received: DemoReceivers['received'] = [];
  const note = (kind: DemoReceivers['received'][number]['kind'], summary: string) => {
    received.push({ kind, summary });
    if (received.length > KEEP) received.shift();
  };
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8'), note));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const smtp: SmtpSink = await startSmtpSink((mail) => note('email', mail.subject));
  return {
    webhook: `${base}/hooks/incident`,
    chat: `${base}/hooks/chat`,
    twilio: `${base}/twilio`,
    smtp: smtp.url,
    received,
    async close() {
      http.closeAllConnections();
      await Promise.all([new Promise((resolve) => http.close(resolve)), smtp.close()]);
    },
  };
}

type Note = (kind: DemoReceivers['received'][number]['kind'], summary: string) => void;

function answer(req: IncomingMessage, res: ServerResponse, body: string, note: Note): void {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const reply = (status: number, value: unknown): void =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  if (path === '/hooks/incident') {
    if (!signedByUs(body, req.headers['x-checkwall-signature']))
      return reply(401, { error: 'bad signature' });
    note('webhook', (JSON.parse(body) as { event?: string }).event ?? '?');
    return reply(200, { ok: true });
  }
  if (path === '/hooks/chat') {
    note('chat', (JSON.parse(body) as { text?: string }).text ?? '');
    return reply(200, { ok: true });
  }
  const twilio = /^\/twilio\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/.exec(path);
  if (twilio && req.method === 'POST') {
    const expected = `Basic ${Buffer.from(`${DEMO_SMS.accountSid}:${DEMO_SMS.authToken}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return reply(401, { message: 'Authenticate' });
    const form = new URLSearchParams(body);
    note(twilio[2] === 'Messages' ? 'sms' : 'call', form.get('Body') ?? form.get('Twiml') ?? '');
    return reply(201, { sid: `SM${Date.now()}`, status: 'queued', to: form.get('To') });
  }
  reply(404, { error: 'not found' });
}

function signedByUs(body: string, header: string | string[] | undefined): boolean {
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', DEMO_SIGNING_SECRET).update(body).digest('hex')}`,
  );
  const got = Buffer.from(typeof header === 'string' ? header : '');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

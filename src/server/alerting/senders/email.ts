// EMAIL: real SMTP through nodemailer, with the service's `smtp` (STARTTLS and
// auth when the URL asks for them). An SMTP 5xx is permanent; a 4xx, a refused
// connection or a timeout may be retried.
//
// nodemailer has no way to call a message back: one whose attempt timed out goes on,
// and a server that scans what it takes may accept it seconds later. Its retry (the
// same delivery id) first waits for that message: taken, it is sent, and not sent twice.
import nodemailer from 'nodemailer';
import type { ServiceConfig } from '../../config/schema.js';
import { htmlBody, subject, textBody } from '../message.js';
import { permanent, transient, type Sender, type SendOutcome } from './types.js';

type SmtpConfig = NonNullable<ServiceConfig['smtp']>;

export function emailSender(smtp: SmtpConfig | undefined, timeoutMs: number): Sender & { close(): void } {
  const transport = smtp
    ? nodemailer.createTransport({
        url: smtp.url,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      })
    : undefined;
  /** Messages whose attempt timed out while the server still had them, by delivery id: whether each went. */
  const late = new Map<string, Promise<boolean>>();
  const send = async (delivery: Parameters<Sender>[0], signal: AbortSignal): Promise<SendOutcome> => {
    if (!transport || !smtp)
      return permanent('EMAIL channels need "smtp" in the service config; none is set');
    const earlier = late.get(delivery.id);
    if (earlier) {
      let went: boolean;
      try {
        went = await abortable(earlier, signal);
      } catch {
        return transient(`timed out after ${timeoutMs / 1000} s, waiting for the last attempt's message`);
      }
      late.delete(delivery.id);
      if (went) return { ok: true };
    }
    const address = (delivery.channel.config as { address: string }).address;
    const mail = transport.sendMail({
      from: smtp.from,
      to: address,
      subject: subject(delivery.payload),
      text: textBody(delivery.payload),
      html: htmlBody(delivery.payload),
      headers: { 'X-Checkwall-Delivery': delivery.id },
    });
    try {
      await abortable(mail, signal);
      return { ok: true };
    } catch (error) {
      if (signal.aborted) keepLate(late, delivery.id, mail);
      return smtpOutcome(error, signal, timeoutMs);
    }
  };
  return Object.assign(send, { close: () => transport?.close() });
}

/** Past this many, the oldest late message is let go: its retry may then send it again. */
const MAX_LATE = 1_000;

/** Keeps a timed-out message's fate for its retry; one that failed late is forgotten at once. */
function keepLate(late: Map<string, Promise<boolean>>, id: string, mail: Promise<unknown>) {
  const went = mail.then(
    () => true,
    () => false,
  );
  late.set(id, went);
  void went.then((ok) => !ok && late.get(id) === went && late.delete(id));
  if (late.size > MAX_LATE) late.delete(late.keys().next().value!);
}

function smtpOutcome(error: unknown, signal: AbortSignal, timeoutMs: number): SendOutcome {
  if (signal.aborted) return transient(`timed out after ${timeoutMs / 1000} s`);
  const e = error as { code?: string; responseCode?: number; response?: string };
  const reply = e.responseCode ? `SMTP ${e.responseCode}` : (e.code ?? 'SMTP error');
  if (e.code === 'EAUTH') return permanent(`${reply}: the mail server refused the credentials`);
  if (e.responseCode && e.responseCode >= 500)
    return permanent(`${reply}: the mail server refused the message`);
  if (e.code === 'ETIMEDOUT') return transient(`timed out after ${timeoutMs / 1000} s`);
  return transient(`${reply}: could not hand the message to the mail server`);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// SMS and PHONE through a provider's REST API in the Twilio shape: a form POST
// to .../Accounts/{sid}/Messages.json or Calls.json with HTTP basic auth; the
// call speaks its text through TwiML <Say>.
import type { ServiceConfig } from '../../config/schema.js';
import { escapeHtml, shortLine, speech } from '../message.js';
import type { HttpPoster } from './http.js';
import { permanent, type Sender } from './types.js';

type SmsConfig = NonNullable<ServiceConfig['sms']>;

export function twilioSender(post: HttpPoster, sms: SmsConfig | undefined, kind: 'SMS' | 'PHONE'): Sender {
  return async (delivery, signal) => {
    if (!sms) return permanent(`${kind} channels need "sms" in the service config; none is set`);
    const to = (delivery.channel.config as { number: string }).number;
    const form = new URLSearchParams({ To: to, From: sms.from });
    if (kind === 'SMS') form.set('Body', shortLine(delivery.payload));
    else form.set('Twiml', `<Response><Say>${escapeHtml(speech(delivery.payload))}</Say></Response>`);
    const resource = kind === 'SMS' ? 'Messages' : 'Calls';
    const base = sms.baseUrl.replace(/\/+$/, '');
    const auth = Buffer.from(`${sms.accountSid}:${sms.authToken}`).toString('base64');
    return post(
      {
        method: 'POST',
        url: `${base}/2010-04-01/Accounts/${encodeURIComponent(sms.accountSid)}/${resource}.json`,
        headers: {
          authorization: `Basic ${auth}`,
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': 'checkwall-alerts',
          'x-checkwall-delivery': delivery.id,
        },
        body: form.toString(),
      },
      signal,
    );
  };
}

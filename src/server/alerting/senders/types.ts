// One sender per channel type: it delivers one notification once and says how
// it went. Retrying is the dispatcher's business, never the sender's.
import type { AlertPayload } from '../../../api/schemas/index.js';
import type { StoredChannel } from '../../storage/types.js';

/** What went over the wire, for a channel test to show (docs/alerts.md): the body sent and the answer. */
export interface Exchange {
  sent: string;
  answer: { status: number | null; body: string } | null;
}

export type SendOutcome = (
  { ok: true } | { ok: false; permanent: boolean; error: string; retryAfterMs?: number | undefined }
) & { exchange?: Exchange };

export interface Delivery {
  id: string;
  payload: AlertPayload;
  channel: StoredChannel;
}

export type Sender = (delivery: Delivery, signal: AbortSignal) => Promise<SendOutcome>;

export const permanent = (error: string): SendOutcome => ({ ok: false, permanent: true, error });
export const transient = (error: string, retryAfterMs?: number): SendOutcome => ({
  ok: false,
  permanent: false,
  error,
  retryAfterMs,
});

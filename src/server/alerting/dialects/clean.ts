// A pager's text is read in web pages, phone apps and their command-line clients, so
// the pager dialects get the payload's people-facing text as the chat dialects do
// (facts.ts): names on one line, the cause with its lines, no escape sequence or
// control character. Ids and URLs are not text: they pass unchanged.
import type { AlertPayload } from '../../../api/schemas/index.js';
import { sanitize, sanitizeMultiline } from '../../../domain/sanitize.js';
import type { Dialect } from './types.js';

export function cleanPayload(p: AlertPayload): AlertPayload {
  return {
    ...p,
    check: p.check && { ...p.check, name: sanitize(p.check.name) },
    channel: { ...p.channel, name: sanitize(p.channel.name) },
    failingLocations: p.failingLocations.map((l) => ({ ...l, name: sanitize(l.name) })),
    error: p.error === null || p.error === undefined ? p.error : sanitizeMultiline(p.error),
    links: p.links.map((l) => ({ ...l, name: sanitize(l.name) })),
    ...(p.acknowledgedBy ? { acknowledgedBy: sanitize(p.acknowledgedBy) } : {}),
    ...(p.location ? { location: { ...p.location, name: sanitize(p.location.name) } } : {}),
    ...(p.cause ? { cause: sanitize(p.cause) } : {}),
    ...(p.heartbeat
      ? { heartbeat: { ...p.heartbeat, outputTail: sanitizeMultiline(p.heartbeat.outputTail) } }
      : {}),
  };
}

/** `dialect`, given the cleaned payload. */
export const withCleanText =
  (dialect: Dialect): Dialect =>
  (delivery, config, now) =>
    dialect({ ...delivery, payload: cleanPayload(delivery.payload) }, config, now);

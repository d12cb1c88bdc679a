// A ping's body (docs/service.md, "Heartbeats"): a job's output, as long as its tool
// posts it. Healthchecks.io keeps part of a long body and counts the ping; so does
// Checkwall: up to PING_BODY_MAX_BYTES are read, the last PING_BODY_TAIL_BYTES kept
// (a log's end says most), and its whole size counted. Past the maximum the ping is
// refused (413), its message saying it was not counted and how to send what fits.
import type { FastifyRequest } from 'fastify';
import { createTail } from '../../domain/utf8-tail.js';
import { HttpError } from './errors.js';

export const PING_BODY_MAX_BYTES = 10 * 1024 * 1024;
export const PING_BODY_TAIL_BYTES = 1024 * 1024;

/** A ping's body as read: its end (at most `PING_BODY_TAIL_BYTES`, from a whole character) and its whole size. */
export interface PingBody {
  tail: Buffer;
  size: number;
}

const tooLarge = () =>
  new HttpError(
    413,
    `the ping's body is larger than ${PING_BODY_MAX_BYTES} bytes, so this ping was not counted: send ` +
      `the end of the job's output (tail -c 65536 job.log | curl --data-binary @- ...)`,
  );

/** fastify's content-type parser for the ping URLs: reads the stream, keeping its end only. */
export function readPingBody(
  _req: FastifyRequest,
  payload: NodeJS.ReadableStream,
  done: (error: Error | null, body?: PingBody) => void,
): void {
  const tail = createTail(PING_BODY_TAIL_BYTES);
  let size = 0;
  let over = false;
  payload.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > PING_BODY_MAX_BYTES) {
      over = true;
      return done(tooLarge());
    }
    tail.push(chunk);
  });
  payload.on('end', () => {
    if (!over) done(null, { tail: tail.bytes(), size });
  });
  payload.on('error', (error: Error) => {
    if (!over) done(error);
    over = true;
  });
}

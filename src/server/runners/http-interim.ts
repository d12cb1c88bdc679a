// A client must read the 1xx answers that come before the final one, even those it
// did not ask for (RFC 9110, 15.2): some servers send `100 Continue` to every POST.
// undici reads a 103 and the others, but fails on a 100 it did not ask for (a
// SocketError "bad response"), where the exporter, curl and browsers read on. The
// 100s that begin a connection's answer are dropped here, before undici's parser
// sees them; the rest of the stream passes untouched.
import type { Socket } from 'node:net';

const CONTINUE = /^HTTP\/1\.[01] 100[ \r]/;
const STATUS_LINES = ['HTTP/1.1 100 ', 'HTTP/1.0 100 '];
/** A head longer than this is not a 100 worth waiting for: it is passed on as it is. */
const MAX_INTERIM_BYTES = 16 * 1024;

/** Whether `head` (the start of an answer) is a 100's status line, or may yet become one. */
function mayBeContinue(head: Buffer): 'yes' | 'no' | 'wait' {
  const text = head.subarray(0, 13).toString('latin1');
  if (CONTINUE.test(text)) return 'yes';
  return text.length < 13 && STATUS_LINES.some((line) => line.startsWith(text)) ? 'wait' : 'no';
}

/** Drops the `100` answers at the start of what this socket reads (it reads one request's answer). */
export function skipContinues(socket: Socket): void {
  // Node's stream reads hand each chunk to the socket's own push(): the place to look
  // at the bytes before any reader, undici's parser included, is given them.
  const push = socket.push.bind(socket);
  let pending = Buffer.alloc(0);
  const done = (chunk: Buffer | null) => {
    socket.push = push;
    if (pending.length > 0) push(pending);
    return chunk === null ? push(null) : true;
  };
  socket.push = (chunk: Buffer | null) => {
    if (chunk === null) return done(null);
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const seen = mayBeContinue(pending);
      if (seen === 'no') return done(chunk);
      const end = pending.indexOf('\r\n\r\n');
      if (seen === 'wait' || end < 0) return pending.length > MAX_INTERIM_BYTES ? done(chunk) : true;
      pending = pending.subarray(end + 4);
    }
  };
}

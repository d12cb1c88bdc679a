// A request written by hand on a socket: headers that announce a body the test
// never sends (or sends later), and headers no HTTP client would let it write.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Resolves when the service closed the connection. */
  closed: Promise<void>;
  socket: Socket;
}

/** Writes `head` (request line and headers, no final blank line) and reads the first answer; rejects after `ms`. */
export function rawRequest(url: string, head: string, ms = 5_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.write(`${head.trim()}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${ms} ms (the service waits for the body?)`));
    }, ms);
    const tryParse = () => {
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [line, ...rest] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const h of rest) {
        const i = h.indexOf(':');
        headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      const body = text.slice(end + 4);
      if (Buffer.byteLength(body) < length) return;
      clearTimeout(timer);
      resolve({ status: Number(line!.split(' ')[1]), headers, body, closed, socket });
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      tryParse();
    });
    socket.once('close', () => {
      clearTimeout(timer);
      if (!text.includes('\r\n\r\n')) reject(new Error(`closed without an answer: ${JSON.stringify(text)}`));
    });
  });
}

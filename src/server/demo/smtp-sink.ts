// The demo's mail server: just enough SMTP (RFC 5321) to take a message from
// nodemailer on loopback and keep its subject. No auth, no TLS, no relay; the
// tests use a complete server (the smtp-server package), the demo needs no
// dependency beyond Node.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SmtpSink {
  url: string;
  close(): Promise<void>;
}

export interface SunkMail {
  from: string;
  to: string[];
  subject: string;
}

export async function startSmtpSink(onMail: (mail: SunkMail) => void): Promise<SmtpSink> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    converse(socket, onMail);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function converse(socket: net.Socket, onMail: (mail: SunkMail) => void) {
  const say = (line: string) => socket.write(`${line}\r\n`);
  let buffer = '';
  let data: string[] | undefined;
  let mail: SunkMail = { from: '', to: [], subject: '' };
  say('220 checkwall-demo ESMTP');
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let end: number;
    while ((end = buffer.indexOf('\r\n')) !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (data) {
        if (line !== '.') {
          data.push(line);
          continue;
        }
        mail.subject = /^Subject: (.*)$/m.exec(data.join('\n'))?.[1] ?? '';
        onMail(mail);
        data = undefined;
        mail = { from: '', to: [], subject: '' };
        say('250 2.0.0 accepted');
        continue;
      }
      const reply = command(line.slice(0, 4).toUpperCase(), line, mail);
      if (reply === 'DATA') data = [];
      say(reply === 'DATA' ? '354 end with <CRLF>.<CRLF>' : reply);
      if (reply.startsWith('221')) socket.end();
    }
  });
}

/** The answer to one command; 'DATA' when the message follows. */
function command(verb: string, line: string, mail: SunkMail): string {
  switch (verb) {
    case 'EHLO':
      return '250-checkwall-demo\r\n250 8BITMIME';
    case 'HELO':
      return '250 checkwall-demo';
    case 'MAIL':
      mail.from = addressIn(line);
      return '250 2.1.0 ok';
    case 'RCPT':
      mail.to.push(addressIn(line));
      return '250 2.1.5 ok';
    case 'DATA':
      return 'DATA';
    case 'RSET':
    case 'NOOP':
      return '250 2.0.0 ok';
    case 'QUIT':
      return '221 2.0.0 bye';
    default:
      return '502 5.5.2 not implemented';
  }
}

const addressIn = (line: string) => /<([^>]*)>/.exec(line)?.[1] ?? '';

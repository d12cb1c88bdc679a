// A bystander for the benches: a process that serves nothing and sets a 50 ms
// timer again and again, keeping how late each one fires. Over a bench's window
// that is how long a thread woken on this machine waited for a core, the floor
// under every latency measured there: a run reading its answer, a target
// reading its request, an instance answering a page all wait on that wake-up.
import { request } from 'undici';
import { listening } from './scale-procs.js';

const TIMER_MS = 50;

const SCRIPT = `
const http = require('node:http');
const late = [];
(function tick() {
  const t0 = performance.now();
  setTimeout(() => {
    late.push({ at: Date.now(), ms: performance.now() - t0 - ${TIMER_MS} });
    if (late.length > 100000) late.splice(0, 50000);
    tick();
  }, ${TIMER_MS});
})();
const server = http.createServer((req, res) => res.end(JSON.stringify(late)));
server.listen(0, '127.0.0.1', () => process.stdout.write('listening on http://127.0.0.1:' + server.address().port + '\\n'));
`;

export interface Bystander {
  /** How late its timer fired (ms) for the timers that fired between two instants (epoch ms). */
  lateBetween(from: number, to: number): Promise<number[]>;
}

/**
 * Started at the priority of the process that starts it: start it before raising that.
 * scale-procs.ts's stopAll() ends it.
 */
export async function startBystander(): Promise<Bystander> {
  const { url } = await listening('bystander', ['-e', SCRIPT], 10_000);
  return {
    async lateBetween(from, to) {
      const res = await request(url);
      const late = (await res.body.json()) as Array<{ at: number; ms: number }>;
      return late.filter((l) => l.at >= from && l.at <= to).map((l) => l.ms);
    },
  };
}

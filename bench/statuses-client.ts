// The statuses pages a console would ask for, asked from a process of its own:
// a console runs on another machine, so its requests share neither the
// service's event loop nor (raised to nice -10, as the benches' other
// instruments are) its wait for a core. It serves one request: POST / with
// where to ask and until when; it asks for pages of 100 one at a time, 100 ms
// apart, and answers with each page's latency (ms, from the request to the end
// of its body). stopAll() (scale-procs.ts) ends it.
import { request } from 'undici';
import { listening, raise } from './scale-procs.js';

const SCRIPT = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const page = (url, headers) => new Promise((resolve, reject) => {
  http.get(url, { agent, headers }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
    res.on('error', reject);
  }).on('error', reject);
});
const server = http.createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  const { base, headers, until, pages } = JSON.parse(body);
  const latencies = [];
  const errors = [];
  for (let n = 1; Date.now() < until; n = (n % pages) + 1) {
    const t = performance.now();
    try {
      const code = await page(base + '/v1/check-statuses?limit=100&page=' + n, headers);
      if (code !== 200) errors.push('HTTP ' + code);
    } catch (error) {
      errors.push(String(error));
    }
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 100));
  }
  res.end(JSON.stringify({ latencies, errors }));
});
server.listen(0, '127.0.0.1', () => process.stdout.write('listening on http://127.0.0.1:' + server.address().port + '\\n'));
`;

export interface StatusesClient {
  /** The nice value it runs at; undefined when it could not be raised. */
  nice: number | undefined;
  /** Asks for pages 1..`pages` in turn from `base` until the epoch ms `until`; each page's latency. */
  measure(base: string, headers: Record<string, string>, until: number, pages: number): Promise<number[]>;
}

export async function startStatusesClient(): Promise<StatusesClient> {
  const { proc, url } = await listening('statuses client', ['-e', SCRIPT], 10_000);
  const pid = proc.child.pid;
  return {
    nice: pid === undefined ? undefined : raise(pid),
    async measure(base, headers, until, pages) {
      const res = await request(url, {
        method: 'POST',
        body: JSON.stringify({ base, headers, until, pages }),
        headersTimeout: until - Date.now() + 60_000,
      });
      const { latencies, errors } = (await res.body.json()) as { latencies: number[]; errors: string[] };
      if (errors.length > 0) throw new Error(`statuses pages failed: ${[...new Set(errors)].join('; ')}`);
      return latencies;
    },
  };
}

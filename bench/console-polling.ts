// bench:console, the polling cases (docs/console.md): the console at a 5 s refresh, on
// the project's service and behind a proxy that holds every answer ~60 ms (a
// busy remote service). Keys are pressed throughout while the polls run; the
// service side counts requests, 304s and bytes; /proc gives CPU and RSS.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstBoard, launch, POLL_GAP_MS, selectedOn, sleep, type Poll } from './console-terminal.js';
import type { Fleet } from './fleet.js';
import { cpuSeconds, rssBytes } from './pty.js';
import { quantiles } from './report.js';

/** Forwards to the service, holding each request `delayMs` first. */
export async function startSlowProxy(target: string, delayMs: number) {
  const to = new URL(target);
  const server = createServer((req, res) => {
    setTimeout(() => {
      const out = request(
        { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface PollingFigures {
  name: string;
  refreshSeconds: number;
  delayMs: number;
  first: number;
  keys: ReturnType<typeof quantiles>;
  presses: number;
  keysDuringPoll: ReturnType<typeof quantiles>;
  pressesDuringPoll: number;
  sweeps: number;
  polls: number;
  requestsPerMinute: number;
  notModifiedShare: number;
  bytesPerPoll: { hot: number; sweep: number };
  cpuPercent: number;
  cpuMsPerPoll: number;
  rss: number;
}

export interface PollingCase {
  name: string;
  refreshSeconds: number;
  delayMs: number;
  keySeconds: number;
  idleSeconds: number;
}

export async function pollingCase(
  fleet: Fleet,
  polls: Poll[],
  order: string[],
  c: PollingCase,
): Promise<PollingFigures> {
  const proxy = c.delayMs > 0 ? await startSlowProxy(fleet.url, c.delayMs) : undefined;
  const program = launch(
    { ...fleet, env: { ...fleet.env, ...(proxy ? { CHECKWALL_BASE_URL: proxy.url } : {}) } },
    c.refreshSeconds,
  );
  const first = await firstBoard(program, order);
  const pid = program.pid();
  // The idle part first: CPU and requests with nothing typed, only the polls.
  const fromPoll = polls.length;
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  await sleep(c.idleSeconds * 1_000);
  const idleMs = performance.now() - t0;
  const cpu = cpuSeconds(pid) - cpu0;
  const idlePolls = polls.slice(fromPoll).filter((p) => p.start < t0 + idleMs);
  // Then keys, pressed throughout while the polls go on.
  const presses = await pressThroughout(program, order, polls, c.keySeconds);
  const rss = rssBytes(pid);
  await program.stop();
  await proxy?.close();
  const all = polls.slice(fromPoll).filter((p) => !Number.isNaN(p.end));
  const sweep = (p: Poll) => p.sweep;
  const sum = (xs: Poll[], f: (p: Poll) => number) => xs.reduce((n, p) => n + f(p), 0);
  const during = presses.filter((p) => p.duringPoll).map((p) => p.ms);
  const median = (xs: number[]) => quantiles(xs).p50;
  return {
    name: c.name,
    refreshSeconds: c.refreshSeconds,
    delayMs: c.delayMs,
    first,
    keys: quantiles(presses.map((p) => p.ms)),
    presses: presses.length,
    keysDuringPoll: quantiles(during),
    pressesDuringPoll: during.length,
    sweeps: all.filter(sweep).length,
    polls: all.length,
    requestsPerMinute: (sum(idlePolls, (p) => p.requests) * 60_000) / idleMs,
    notModifiedShare:
      sum(all, (p) => p.notModified) /
      Math.max(
        1,
        sum(all, (p) => p.requests),
      ),
    bytesPerPoll: {
      hot: median(all.filter((p) => !sweep(p)).map((p) => p.bytes)),
      sweep: median(all.filter(sweep).map((p) => p.bytes)),
    },
    cpuPercent: (100 * cpu * 1_000) / idleMs,
    cpuMsPerPoll: (cpu * 1_000) / Math.max(1, idlePolls.length),
    rss,
  };
}

/** j and k, one press every 70-120 ms after the last frame, for `seconds`; each marked if a poll was running. */
async function pressThroughout(
  program: ReturnType<typeof launch>,
  order: string[],
  polls: Poll[],
  seconds: number,
) {
  const out: Array<{ ms: number; duringPoll: boolean }> = [];
  const until = performance.now() + seconds * 1_000;
  let at = 0;
  let down = true;
  while (performance.now() < until) {
    await sleep(70 + Math.random() * 50);
    if (at >= 30) down = false;
    if (at <= 0) down = true;
    at += down ? 1 : -1;
    const sent = performance.now();
    const poll = polls.at(-1);
    // Running: a request in flight, or the answers in and being applied (within the gap after).
    const duringPoll = poll !== undefined && (Number.isNaN(poll.end) || sent - poll.end < POLL_GAP_MS);
    program.write(down ? 'j' : 'k');
    const seen = await program.waitFor(selectedOn(order[at]!), sent, 10_000);
    out.push({ ms: seen - sent, duringPoll });
  }
  return out;
}

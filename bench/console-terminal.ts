// bench:console, the parts measured on the real program in a real pty:
// first board, key-press latency, bytes per poll, RSS and idle CPU.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CheckStatus } from '../src/api/schemas/index.js';
import { compareChecks } from '../src/domain/order.js';
import { kindOf, type Fleet } from './fleet.js';
import { cpuSeconds, rssBytes, startInPty, type PtyProgram } from './pty.js';

export const COLS = 120;
export const ROWS = 40;
const CLOCK_TICK_MS = 1_000;

// eslint-disable-next-line no-control-regex -- reading the terminal's text without its escape sequences
const ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-B]|\u001b[=>78]/g;
const plain = (text: string) => text.replace(ESCAPES, '');

/** A line (between newlines) that has the selection marker and this check's name. */
export const selectedOn = (name: string) => (text: string) =>
  plain(text)
    .split(/\r?\n/)
    .some((line) => line.includes('›') && line.includes(name));

/** The board's order (worst first, then name) of the statuses the service answers: their names. */
export function boardOrder(statuses: readonly CheckStatus[]): string[] {
  return [...statuses].sort((a, b) => compareChecks(a, b, 'status')).map((c) => c.checkName);
}

export interface Poll {
  start: number;
  /** NaN while requests are in flight (or may still follow). */
  end: number;
  requests: number;
  notModified: number;
  bytes: number;
  inflight: number;
  /** A request of the whole list (no status filter) was among its requests. */
  sweep: boolean;
}

/** A quiet gap longer than this ends a poll: its pages and lists follow each other closely. */
export const POLL_GAP_MS = 300;

/** Every statuses request as the service sees it, grouped into polls. */
export function watchPolls(fleet: Fleet): Poll[] {
  const polls: Poll[] = [];
  let lastEnd = Number.NEGATIVE_INFINITY;
  // Before fastify's own listener: a synchronous route answers within it.
  fleet.service.app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!(req.url ?? '').startsWith('/v1/check-statuses')) return;
    let poll = polls.at(-1);
    const now = performance.now();
    if (!poll || (poll.inflight === 0 && now - lastEnd > POLL_GAP_MS)) {
      poll = {
        start: now,
        end: Number.NaN,
        requests: 0,
        notModified: 0,
        bytes: 0,
        inflight: 0,
        sweep: false,
      };
      polls.push(poll);
    }
    const p = poll;
    const counted = countBody(res);
    p.requests++;
    if (!/[?&]status=/.test(req.url ?? '')) p.sweep = true;
    p.inflight++;
    p.end = Number.NaN;
    res.on('finish', () => {
      p.inflight--;
      if (res.statusCode === 304) p.notModified++;
      p.bytes += counted();
      if (p.inflight === 0) p.end = lastEnd = performance.now();
    });
  });
  return polls;
}

/** A poll that ended and saw no request for POLL_GAP_MS since. */
export const settled = (p: Poll | undefined) =>
  p !== undefined && !Number.isNaN(p.end) && performance.now() - p.end > POLL_GAP_MS;

/** The body bytes a response writes (the socket's counters lag behind 'finish'). */
function countBody(res: ServerResponse): () => number {
  let bytes = 0;
  const count = (chunk: unknown) => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) bytes += chunk.length;
  };
  const { write, end } = res;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    count(chunk);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    count(chunk);
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;
  return () => bytes;
}

export function launch(fleet: Fleet, refresh: number): PtyProgram {
  return startInPty(['bin/checkwall.js', 'console', '--refresh', String(refresh)], {
    cols: COLS,
    rows: ROWS,
    env: fleet.env,
  });
}

/** Milliseconds from spawn to the first frame showing the worst check's row. */
export async function firstBoard(program: PtyProgram, order: string[]): Promise<number> {
  const at = await program.waitFor((t) => plain(t).includes(order[0]!), 0, 60_000);
  return at - program.startedAt;
}

/** Presses j `presses` times then k as many, each after the last frame settled; ms per press. */
export async function keyLatencies(program: PtyProgram, order: string[], presses: number): Promise<number[]> {
  const out: number[] = [];
  let at = 0;
  const press = async (key: string, target: number) => {
    await sleep(70 + Math.random() * 50);
    const sent = performance.now();
    program.write(key);
    const seen = await program.waitFor(selectedOn(order[target]!), sent, 5_000);
    out.push(seen - sent);
  };
  for (let i = 0; i < presses; i++) await press('j', ++at);
  for (let i = 0; i < presses; i++) await press('k', --at);
  return out;
}

export interface PollBytes {
  polls: number;
  touched: number[];
  turned: number[];
  tick: number[];
}

/**
 * Bytes the program writes for one poll (asked for with `pollNow`): from its first
 * request to 400 ms after its last answer. `touch` polls change one visible failing check's figures;
 * `turn` polls make one more check turn failing (it enters the list, rows below shift).
 */
export async function bytesPerPoll(
  program: PtyProgram,
  fleet: Fleet,
  polls: Poll[],
  rounds: number,
  pollNow: () => void,
): Promise<PollBytes> {
  const all = Array.from({ length: fleet.checks }, (_, i) => i);
  const visibleFailing = all.filter((i) => kindOf(i) === 'failing')[2]!; // third row of the board
  const passing = all.filter((i) => kindOf(i) === 'passing');
  const result: PollBytes = { polls: 0, touched: [], turned: [], tick: [] };
  const nextPoll = async () => {
    const seen = polls.length;
    pollNow();
    while (polls.length === seen || !settled(polls.at(-1))) await sleep(20);
    const poll = polls.at(-1)!;
    await sleep(400);
    return program.bytesBetween(poll.start, poll.end + 400);
  };
  await nextPoll();
  for (let r = 0; r < rounds; r++) {
    await fleet.touch(visibleFailing);
    result.touched.push(await nextPoll());
    await fleet.setFailing(passing[r * 7 + 3]!, true);
    result.turned.push(await nextPoll());
    // A clock tick with no poll near it: the ages on screen move on.
    const from = performance.now();
    await sleep(CLOCK_TICK_MS);
    result.tick.push(program.bytesBetween(from, performance.now()));
  }
  result.polls = result.touched.length + result.turned.length;
  return result;
}

export async function idle(
  program: PtyProgram,
  seconds: number,
): Promise<{ cpuPercent: number; rss: number }> {
  const pid = program.pid();
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  await sleep(seconds * 1_000);
  const cpu = cpuSeconds(pid) - cpu0;
  return { cpuPercent: (100 * cpu) / ((performance.now() - t0) / 1_000), rss: rssBytes(pid) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

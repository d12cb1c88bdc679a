// `checkwall exec`: runs a job and tells its heartbeat check how it went, as
// Healthchecks.io's runitor does (docs/service.md, "Heartbeats"): /start before,
// then the exit code with the last 10 KB of the job's output. The job never fails
// because its monitor is down: each ping has 5 s, and a service that cannot be
// reached is said on stderr while the command runs and exits as it would alone.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants } from 'node:os';
import { request } from 'undici';
import { sanitize } from '../domain/sanitize.js';
import { createTail as createStreamTail } from '../domain/utf8-tail.js';

export const EXEC_USAGE = `Usage: checkwall exec [--ping-url URL] -- COMMAND [ARGS…]

Runs COMMAND and reports it to a heartbeat check: a /start ping before it runs,
then its exit code (0 is success) with the last 10 KB of its output (stdout and
stderr as they came) as the run's log. Its output still reaches this terminal,
and exec exits with its exit code (128+n when a signal n ended it). Signals sent
to exec are passed on to the command.

  --ping-url URL   the check's ping URL, https://…/v1/heartbeats/<token>; better
                   from the environment (CHECKWALL_PING_URL): a command line is
                   readable by every local user (ps)

Each ping has 5 s; the end ping is tried 3 times within 15 s. When the service
cannot be reached the command still runs and exec says so on stderr.

A crontab line:
  0 3 * * *  CHECKWALL_PING_URL=https://cw.example.com/v1/heartbeats/TOKEN checkwall exec -- /usr/local/bin/backup.sh`;

export const OUTPUT_TAIL_BYTES = 10 * 1024;
const PING_TIMEOUT_MS = 5_000;
const END_TRIES = 3;
const END_WITHIN_MS = 15_000;
const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];

interface ExecIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Pauses between end-ping tries (tests give none). */
  sleep?: (ms: number) => Promise<void>;
}

const say = (io: ExecIo, line: string) => io.stderr.write(`checkwall exec: ${line}\n`);

/** The ping URL and the command, or a message saying what is wrong. */
export function parseExecArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
): { url: string; command: string[]; fromArgv: boolean } | { error: string } {
  const dash = argv.indexOf('--');
  const own = dash < 0 ? argv : argv.slice(0, dash);
  const command = dash < 0 ? [] : argv.slice(dash + 1);
  let fromArgv: string | undefined;
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    if (arg === '--ping-url') fromArgv = own[++i];
    else if (arg.startsWith('--ping-url=')) fromArgv = arg.slice('--ping-url='.length);
    else return { error: `unknown option "${arg}" (the command goes after --)` };
  }
  const url = fromArgv ?? env['CHECKWALL_PING_URL'];
  if (command.length === 0)
    return { error: 'no command: give it after --, e.g. checkwall exec -- ./backup.sh' };
  if (!url) return { error: 'no ping URL: set CHECKWALL_PING_URL (or give --ping-url)' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: `the ping URL "${sanitize(url)}" is not a URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { error: `the ping URL must be http(s), not ${sanitize(parsed.protocol)}` };
  return { url: url.replace(/\/+$/, ''), command, fromArgv: fromArgv !== undefined };
}

/** The last `max` bytes of what was written, whole characters only. */
export const createTail = (max = OUTPUT_TAIL_BYTES) => createStreamTail(max);

async function ping(url: string, body?: string, timeoutMs = PING_TIMEOUT_MS): Promise<string | null> {
  try {
    const res = await request(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'text/plain; charset=utf-8' },
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.body.text();
    return res.statusCode < 300 ? null : `HTTP ${res.statusCode}: ${sanitize(text.slice(0, 200))}`;
  } catch (error) {
    return sanitize((error as Error).message);
  }
}

/** What ended the child: its exit code, or 128 + the signal's number. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
}

export async function runExec(argv: string[], io: ExecIo = defaultIo()): Promise<number> {
  const args = parseExecArgs(argv, io.env);
  if ('error' in args) {
    say(io, `${args.error}\n\n${EXEC_USAGE}`);
    return 2;
  }
  if (args.fromArgv)
    say(
      io,
      'the ping URL holds a secret token and a command line is readable by every local user (ps): prefer CHECKWALL_PING_URL',
    );
  const rid = randomUUID();
  const started = await ping(`${args.url}/start?rid=${rid}`);
  if (started) say(io, `could not tell the service the job started (${started}); running it anyway`);
  const tail = createTail();
  const code = await runChild(args.command, io, tail);
  const sleep = io.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const deadline = Date.now() + END_WITHIN_MS;
  let failed: string | null = null;
  // Three tries, 2 s then 4 s apart, each within what is left of the 15 s.
  for (let attempt = 1; attempt <= END_TRIES; attempt++) {
    const left = Math.min(PING_TIMEOUT_MS, deadline - Date.now());
    failed = await ping(`${args.url}/${code}?rid=${rid}`, tail.text(), Math.max(1, left));
    if (!failed || attempt === END_TRIES || Date.now() + 2_000 * attempt >= deadline) break;
    await sleep(2_000 * attempt);
  }
  if (failed) say(io, `could not tell the service the job ended with ${code} (${failed})`);
  return code;
}

function runChild(command: string[], io: ExecIo, tail: ReturnType<typeof createTail>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ['inherit', 'pipe', 'pipe'], env: io.env });
    const pass = (signal: NodeJS.Signals) => child.kill(signal);
    for (const s of FORWARDED) process.on(s, pass);
    const copy = (to: NodeJS.WritableStream) => (chunk: Buffer) => {
      tail.push(chunk);
      to.write(chunk);
    };
    child.stdout!.on('data', copy(io.stdout));
    child.stderr!.on('data', copy(io.stderr));
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      for (const s of FORWARDED) process.off(s, pass);
      resolve(code);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOENT' ? `command not found: ${command[0]}` : error.message;
      tail.push(Buffer.from(`checkwall exec: ${why}\n`));
      say(io, sanitize(why));
      finish(error.code === 'ENOENT' ? 127 : 126);
    });
    child.once('close', (code, signal) => finish(exitCodeOf(code, signal)));
  });
}

function defaultIo(): ExecIo {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr };
}

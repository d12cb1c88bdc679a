// The program in a real pseudo-terminal for the benches: util-linux `script`
// gives it a pty of a set size; we type into script's stdin and timestamp
// every chunk the program writes to the terminal.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Chunk {
  at: number;
  bytes: number;
  text: string;
}

export interface PtyProgram {
  /** performance.now() just before the spawn. */
  startedAt: number;
  chunks: Chunk[];
  write(keys: string): void;
  /** Resolves with the time of the first chunk from `from` on whose text (joined) matches. */
  waitFor(test: (text: string) => boolean, from?: number, timeoutMs?: number): Promise<number>;
  /** The program's own process (script's child), for /proc readings. */
  pid(): number;
  bytesBetween(from: number, to: number): number;
  stop(): Promise<void>;
}

export function startInPty(
  args: string[],
  opts: { cols: number; rows: number; env: Record<string, string> },
): PtyProgram {
  const command = `stty cols ${opts.cols} rows ${opts.rows}; exec ${[process.execPath, ...args].map(quote).join(' ')}`;
  const startedAt = performance.now();
  const child: ChildProcessWithoutNullStreams = spawn('script', ['-qfec', command, '/dev/null'], {
    env: {
      ...process.env,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      XDG_CONFIG_HOME: '/nonexistent-checkwall',
      ...opts.env,
    },
    stdio: 'pipe',
  });
  const chunks: Chunk[] = [];
  const waiters = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    chunks.push({ at: performance.now(), bytes: d.length, text: d.toString('utf8') });
    for (const w of waiters) w();
  });
  child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));

  function waitFor(test: (text: string) => boolean, from = 0, timeoutMs = 30_000): Promise<number> {
    return new Promise((resolve, reject) => {
      let seen = '';
      let index = chunks.findIndex((c) => c.at >= from);
      if (index < 0) index = chunks.length;
      const check = () => {
        for (; index < chunks.length; index++) {
          seen += chunks[index]!.text;
          if (test(seen)) {
            done();
            return resolve(chunks[index]!.at);
          }
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out; the terminal last showed:\n${seen.slice(-2000)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }

  return {
    startedAt,
    chunks,
    write: (keys) => void child.stdin.write(keys),
    waitFor,
    pid() {
      const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
      const pid = Number(children.split(/\s+/)[0]);
      if (!pid) throw new Error('the program is not running');
      return pid;
    },
    bytesBetween: (from, to) =>
      chunks.filter((c) => c.at >= from && c.at < to).reduce((n, c) => n + c.bytes, 0),
    async stop() {
      child.stdin.write('q');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** CPU seconds (user + system) a process has used, from /proc/PID/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** Resident memory in bytes, from /proc/PID/status. */
export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

function quote(s: string): string {
  return /^[\w./=:-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

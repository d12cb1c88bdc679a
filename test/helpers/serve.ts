// `checkwall serve` as a child process of the built program (bin/checkwall.js
// over dist/), for the tests of what a user running it sees: its flags, its
// lines, its signals, its database on disk.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServeProcess {
  child: ChildProcess;
  /** The base URL from the "listening on" line. */
  url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started = new Set<ChildProcess>();

/** Starts `checkwall serve ARGS` and resolves once it prints its listening line. */
export function startServe(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 15_000,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['bin/checkwall.js', 'serve', ...args], {
    env: { ...process.env, CHECKWALL_ACCOUNT_ID: undefined, CHECKWALL_API_KEY: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      started.delete(child);
      resolve({ code, signal });
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`checkwall serve did not start in ${timeoutMs} ms\n${out}\n${err}`));
    }, timeoutMs);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`checkwall serve exited with ${code} before listening\n${out}\n${err}`));
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        child,
        url: m[1]!,
        stdout: () => out,
        stderr: () => err,
        exited,
        stop: (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    });
  });
}

/** Kills whatever a failed test left running. */
export function killStrays(): void {
  for (const child of started) child.kill('SIGKILL');
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'checkwall-serve-'));
}

/** Writes a config file into a fresh directory and returns its path. */
export function writeConfig(name: string, text: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, text);
  return path;
}

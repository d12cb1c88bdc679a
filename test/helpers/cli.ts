// Runs the built program as a child process, asynchronously, so a service in
// this test process keeps answering while it runs.
import { spawn } from 'node:child_process';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** bin/checkwall.js under this Node, with this process's environment plus `env`. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 20_000,
): Promise<CliRun> {
  return runProgram(
    process.execPath,
    ['bin/checkwall.js', ...args],
    { ...process.env, XDG_CONFIG_HOME: '/nonexistent-checkwall', ...env },
    timeoutMs,
  );
}

/** Any program with exactly `env` as its environment (as `env -i` would: no PATH unless given). */
export function runProgram(
  file: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 20_000,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

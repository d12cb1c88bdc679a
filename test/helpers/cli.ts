// Runs the built program as a child process, asynchronously, so a service in
// this test process keeps answering while it runs.
import { spawn } from 'node:child_process';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 20_000,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/checkwall.js', ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: '/nonexistent-checkwall', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`checkwall ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`),
      );
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

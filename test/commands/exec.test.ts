// `checkwall exec` around real jobs, against a real service over HTTP: the job's exit
// code and the last 10 KB of its output become the heartbeat's run, its output still
// reaches the terminal, exec exits with the job's code (128+n for a signal), and a
// service that is down never fails the job.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTail, parseExecArgs, runExec } from '../../src/commands/exec.js';
import { accountConfig } from '../helpers/configs.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { runsOf } from '../server/heartbeats/helpers.js';

const TOKEN = 'hb-exec-0123456789abcdef';
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    config: accountConfig({
      checks: [{ id: 'nightly', type: 'heartbeat', token: TOKEN, frequency: '24h', grace: '1h' }],
    }),
  });
});
afterAll(() => svc.close());

function io(env: NodeJS.ProcessEnv) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d: Buffer) => (stdout += d.toString()));
  err.on('data', (d: Buffer) => (stderr += d.toString()));
  return {
    io: {
      env: { PATH: process.env['PATH'], ...env },
      stdout: out,
      stderr: err,
      sleep: async () => undefined,
    },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

describe('checkwall exec', () => {
  it('reports a job that prints 20 KB and exits 3: the run says exit 3 and keeps the last 10 KB', async () => {
    const t = io({ CHECKWALL_PING_URL: `${svc.url}/v1/heartbeats/${TOKEN}` });
    // 20 lines of 1,023 characters and a newline: 20,480 bytes, the last line marked.
    const script =
      'for i in $(seq 1 19); do printf "%01023d\\n" $i; done; echo "disk full" >&2; printf "%01013d-THE-END\\n" 0; exit 3';
    const code = await runExec(['--', 'sh', '-c', script], t.io);
    expect(code).toBe(3);
    expect(t.stdout().length).toBeGreaterThan(19_000); // passed through to the terminal
    expect(t.stderr()).toBe('disk full\n'); // no warning: the URL came from the environment
    const [run] = await runsOf(svc, 'nightly');
    expect(run).toMatchObject({ status: 'failed', triggeredBy: 'api', heartbeat: { exitCode: 3 } });
    expect(run!.error?.message).toContain('3');
    const log = run!.response?.body ?? '';
    expect(Buffer.byteLength(log)).toBeLessThanOrEqual(10 * 1024);
    expect(Buffer.byteLength(log)).toBeGreaterThan(10 * 1024 - 1024);
    // Two pipes: the order of stdout's last line and stderr's is the kernel's, not ours.
    expect(log.slice(-60)).toContain('-THE-END\n');
    expect(log).toContain('disk full'); // stderr interleaved with stdout
    expect(log).not.toContain('0000000001\n'); // the first lines are gone
    expect(run!.duration).toBeGreaterThanOrEqual(0);
  });

  it('a job ended by a signal exits 128+n and the run says so', async () => {
    const t = io({ CHECKWALL_PING_URL: `${svc.url}/v1/heartbeats/${TOKEN}` });
    expect(await runExec(['--', 'sh', '-c', 'kill -TERM $$'], t.io)).toBe(143);
    const runs = await runsOf(svc, 'nightly');
    expect(runs.at(-1)).toMatchObject({ status: 'failed', heartbeat: { exitCode: 143 } });
  });

  it('runs the job and exits with its code when the service is down, saying so', async () => {
    const t = io({ CHECKWALL_PING_URL: `http://127.0.0.1:9/v1/heartbeats/${TOKEN}` });
    expect(await runExec(['--', 'sh', '-c', 'echo ran; exit 0'], t.io)).toBe(0);
    expect(t.stdout()).toBe('ran\n');
    expect(t.stderr()).toMatch(/could not tell the service the job started .*; running it anyway/);
    expect(t.stderr()).toMatch(/could not tell the service the job ended with 0/);
  });

  it('warns of a token on the command line, and refuses what it cannot run', async () => {
    const t = io({});
    expect(await runExec(['--ping-url', `${svc.url}/v1/heartbeats/${TOKEN}`, '--', 'true'], t.io)).toBe(0);
    expect(t.stderr()).toContain('prefer CHECKWALL_PING_URL');
    expect(parseExecArgs(['--', 'true'], {})).toEqual({
      error: 'no ping URL: set CHECKWALL_PING_URL (or give --ping-url)',
    });
    expect(parseExecArgs([], { CHECKWALL_PING_URL: 'http://x/' })).toMatchObject({
      error: expect.stringContaining('no command'),
    });
    expect(parseExecArgs(['--', 'true'], { CHECKWALL_PING_URL: 'file:///etc/passwd' })).toMatchObject({
      error: 'the ping URL must be http(s), not file:',
    });
    const missing = io({ CHECKWALL_PING_URL: `${svc.url}/v1/heartbeats/${TOKEN}` });
    expect(await runExec(['--', 'no-such-command-here'], missing.io)).toBe(127);
    expect(missing.stderr()).toContain('command not found: no-such-command-here');
  });

  it('keeps whole characters at the cut of its tail', () => {
    const tail = createTail(5);
    tail.push(Buffer.from('aé'));
    tail.push(Buffer.from('€€'));
    expect(tail.text()).toBe('€'); // 'é€€' is 8 bytes: the last 5 begin inside a '€'
  });
});

// `checkwall runner` measures in a run worker thread, as the service does: its
// main thread claims and posts (JSON, schemas), and a stretch of that work must
// not show in a measurement. A target that answers after a known 100 ms is
// measured at about 100 ms while the runner's main thread is busy for 300 ms
// from just after the request went out. The target is a process of its own, so
// the busy thread cannot delay it either.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunnerJob } from '../../src/api/runner-schemas.js';
import { createExecutor } from '../../src/commands/runner.js';
import { runWorkerEntry } from '../helpers/run-worker.js';

const DELAY_MS = 100;
const BUSY_MS = 300;
const TARGET = `
const http = require('node:http');
const server = http.createServer((req, res) => setTimeout(() => res.end('ok'), ${DELAY_MS}));
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port)));
`;

let child: ChildProcess | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  child?.kill();
  child = close = undefined;
});

function startTarget(): Promise<string> {
  const c = (child = spawn(process.execPath, ['-e', TARGET], { stdio: ['ignore', 'pipe', 'inherit'] }));
  return new Promise((resolve) =>
    c.stdout!.once('data', (d: Buffer) => resolve(`http://127.0.0.1:${String(d).trim()}`)),
  );
}

const job = (target: string, n: number): RunnerJob => ({
  runId: `run-${n}`,
  claimToken: `token-${n}`,
  dueAt: new Date().toISOString(),
  leaseUntil: new Date(Date.now() + 60_000).toISOString(),
  attempt: 1,
  job: {
    accountId: 'account',
    check: { id: 'web', name: 'web', type: 'api', target, locations: ['tokyo'] },
    location: { id: 'tokyo', name: 'Tokyo', region: 'ap-northeast-1' },
    triggeredBy: 'schedule',
    maxStoredBodyBytes: 1024,
  },
});

describe('a runner’s runs', () => {
  it('are measured off its main thread: a busy stretch there does not show in firstByte', async () => {
    const target = await startTarget();
    const executor = createExecutor({
      concurrency: 4,
      location: 'tokyo',
      workers: { entry: await runWorkerEntry() },
    });
    close = executor.close;
    // The first run warms the worker's connection code; the measured ones come after.
    await executor.execute(job(`${target}/`, 0), AbortSignal.timeout(10_000));
    for (let n = 1; n <= 3; n++) {
      const running = executor.execute(job(`${target}/`, n), AbortSignal.timeout(10_000));
      // The request is out (a loopback connect takes well under 50 ms); the answer comes at
      // about 100 ms, while this thread is still busy.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const until = performance.now() + BUSY_MS;
      while (performance.now() < until);
      const result = await running;
      expect(result.status).toBe('success');
      const firstByte = result.timing.firstByte!;
      expect(firstByte).toBeGreaterThanOrEqual(DELAY_MS - 5);
      // On the main thread, the answer would wait for the busy stretch: about 350 ms.
      expect(firstByte).toBeLessThan(DELAY_MS + 100);
    }
  });
});

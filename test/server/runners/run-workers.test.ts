// Runs happen in worker threads, not on the API's event loop: with the main
// thread busy in long stretches (as under a heavy API load), a target that
// answers after a known 100 ms is still measured at about 100 ms, and the API
// answers between the stretches. The target is a process of its own, so the
// busy thread cannot delay it either.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckResultListSchema, CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import { accountConfig } from '../../helpers/configs.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

const DELAY_MS = 100;
const TARGET = `
const http = require('node:http');
const server = http.createServer((req, res) => setTimeout(() => res.end('ok'), ${DELAY_MS}));
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port)));
`;

let svc: TestService | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  await svc?.close();
  child?.kill();
  svc = child = undefined;
});

function startTarget(): Promise<string> {
  const c = (child = spawn(process.execPath, ['-e', TARGET], { stdio: ['ignore', 'pipe', 'inherit'] }));
  return new Promise((resolve) =>
    c.stdout!.once('data', (d: Buffer) => resolve(`http://127.0.0.1:${String(d).trim()}`)),
  );
}

/** Keeps this thread busy for `ms`, as a burst of heavy requests would. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const headers = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

describe('runs in worker threads', () => {
  it('measures the target, not the service: a busy main thread does not show in firstByte', async () => {
    const url = await startTarget();
    const s = (svc = await startTestService({
      startScheduler: true,
      config: accountConfig({
        locations: [
          { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' },
          { id: 'us-east', name: 'Virginia', region: 'us-east-1' },
        ],
        checks: [
          { id: 'web', target: `${url}/`, frequency: '1s' },
          { id: 'port', type: 'tcp', target: url.slice(7), frequency: '1s', locations: ['eu-west'] },
        ],
      }),
    }));
    const stored = async () => {
      const res = await fetch(`${s.url}/v1/check-results/web?period=1h&limit=100`, { headers });
      return CheckResultListSchema.parse(await res.json()).data;
    };
    let answered = 0;
    // Busy 600 ms, free a moment, over and over: a run on this thread would measure the stretch.
    await expect
      .poll(
        async () => {
          busy(600);
          const res = await fetch(`${s.url}/v1/check-statuses`, { headers });
          CheckStatusListSchema.parse(await res.json());
          answered++;
          return (await stored()).length;
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBeGreaterThanOrEqual(6);
    expect(answered).toBeGreaterThan(0);
    const all = await stored();
    const firstBytes = all.map((r) => r.timing.firstByte!);
    // At least the target's delay; far less than a stretch of the busy thread.
    for (const ms of firstBytes) {
      expect(ms).toBeGreaterThanOrEqual(DELAY_MS - 2);
      expect(ms).toBeLessThan(DELAY_MS + 250);
    }
    // Every http and tcp run was executed by a worker thread (thread 0 is the main one).
    const threads = s.runsByThread();
    expect([...threads.keys()].every((id) => id > 0)).toBe(true);
    expect([...threads.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(firstBytes.length);
    const port = await fetch(`${s.url}/v1/check-results/port?period=1h&limit=100`, { headers });
    expect(CheckResultListSchema.parse(await port.json()).data.every((r) => r.status === 'success')).toBe(
      true,
    );
  });
});

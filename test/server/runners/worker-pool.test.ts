// The run worker pool on its own: a job in, exactly one result out, whatever
// happens to the run (it ends, it is aborted, its worker dies), and results that
// finish together coming back together.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckResultSchema } from '../../../src/api/schemas/index.js';
import { CheckConfigSchema } from '../../../src/server/config/schema.js';
import { toJob, type ToRunner } from '../../../src/server/runners/job-protocol.js';
import { createWorkerPool, type WorkerPool } from '../../../src/server/runners/worker-pool.js';
import { startFixture, type Fixture } from '../../helpers/fixture.js';
import { runWorkerEntry } from '../../helpers/run-worker.js';

const location = { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' };
const job = (target: string, type: 'api' | 'tcp' = 'api') =>
  toJob(
    'acc',
    CheckConfigSchema.parse({ id: 'x', name: 'x', type, target, locations: ['eu-west'], timeoutMs: 10_000 }),
    location,
    'manual',
    1024,
  );

let pool: WorkerPool | undefined;
let fixture: Fixture | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await pool?.close();
  await fixture?.close();
  pool = fixture = undefined;
});

describe('run worker pool', () => {
  it('runs http and tcp jobs on worker threads and answers plain results', async () => {
    fixture = await startFixture((_req, res) => res.writeHead(200).end('hello'));
    const p = (pool = createWorkerPool({ size: 2, entry: await runWorkerEntry() }));
    const signal = new AbortController().signal;
    const [http, tcp] = await Promise.all([
      p.run(job(`${fixture.url}/`), signal),
      p.run(job(fixture.url.slice('http://'.length), 'tcp'), signal),
    ]);
    expect(CheckResultSchema.parse(http).status).toBe('success');
    expect(http.response?.body).toBe('hello');
    expect(http.location).toEqual(location);
    expect(CheckResultSchema.parse(tcp).status).toBe('success');
    expect([...p.runsByThread().keys()].every((id) => id > 0)).toBe(true);
  });

  it('ends an aborted run at once, with a result', async () => {
    fixture = await startFixture(() => undefined); // never answers
    const p = (pool = createWorkerPool({ size: 1, entry: await runWorkerEntry() }));
    const controller = new AbortController();
    const run = p.run(job(`${fixture.url}/hang`), controller.signal);
    await expect.poll(() => fixture!.seen.length, { timeout: 10_000 }).toBe(1);
    controller.abort(new Error('the service is stopping'));
    const result = await run;
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain('stopping');
  });

  it('posts the runs given in one turn in one message, and an abort after its run', async () => {
    const f = (fixture = await startFixture(
      (req, res) => void (req.url === '/hang' || res.writeHead(200).end()),
    ));
    const p = (pool = createWorkerPool({ size: 1, entry: await runWorkerEntry() }));
    await p.warm();
    const posts = vi.spyOn(Worker.prototype, 'postMessage');
    const sent = () =>
      posts.mock.calls.map(([m]) =>
        (m as ToRunner).kind === 'runs' ? (m as { runs: unknown[] }).runs.length : (m as ToRunner).kind,
      );
    const signal = new AbortController().signal;
    const five = await Promise.all(Array.from({ length: 5 }, () => p.run(job(`${f.url}/`), signal)));
    expect(five.map((r) => r.status)).toEqual(Array(5).fill('success'));
    expect(sent()).toEqual([5]);
    // Aborted in the turn it was given: posted at once, then its abort, and it ends with a result.
    const controller = new AbortController();
    const hung = p.run(job(`${f.url}/hang`), controller.signal);
    controller.abort(new Error('the service is stopping'));
    expect((await hung).error?.message).toContain('stopping');
    expect(sent()).toEqual([5, 1, 'abort']);
  });

  it('answers the runs of a worker that dies with failed results, and replaces it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkwall-dying-worker-'));
    writeFileSync(
      join(dir, 'dying.mjs'),
      "import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => process.exit(3));",
    );
    const p = (pool = createWorkerPool({ size: 1, entry: pathToFileURL(join(dir, 'dying.mjs')) }));
    const signal = new AbortController().signal;
    for (let i = 0; i < 2; i++) {
      const result = await p.run(job('http://127.0.0.1:9/'), signal);
      expect(result.status).toBe('failed');
      expect(result.error).toMatchObject({ name: 'RunnerError', message: "the run's worker exited (3)" });
    }
  });

  it('gives the runs of a tick to one thread until it has 8 in flight, then to the next', async () => {
    const f = (fixture = await startFixture(
      (_req, res) => void setTimeout(() => res.writeHead(200).end('ok'), 150),
    ));
    const p = (pool = createWorkerPool({ size: 2, entry: await runWorkerEntry() }));
    await p.warm();
    const signal = new AbortController().signal;
    // One at a time: all on the first thread, the other stays asleep.
    for (let i = 0; i < 3; i++) await p.run(job(`${f.url}/`), signal);
    expect([...p.runsByThread().values()]).toEqual([3]);
    // Ten at once: eight fill the first, the ninth and tenth go to the second.
    const results = await Promise.all(Array.from({ length: 10 }, () => p.run(job(`${f.url}/`), signal)));
    expect(results.every((r) => r.status === 'success')).toBe(true);
    expect([...p.runsByThread().values()].sort((a, b) => b - a)).toEqual([11, 2]);
  });

  it('sends the results of runs that finish together in one message, and holds none behind a slow run', async () => {
    const f = (fixture = await startFixture((req, res) => {
      if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('slow'), 800);
      else res.writeHead(200).end('fast');
    }));
    const p = (pool = createWorkerPool({ size: 1, entry: await runWorkerEntry() }));
    await p.warm();
    const messages = vi.spyOn(Worker.prototype, 'emit');
    const results = () => messages.mock.calls.filter(([event]) => event === 'message').length;
    const signal = new AbortController().signal;
    const five = await Promise.all(Array.from({ length: 5 }, () => p.run(job(`${f.url}/`), signal)));
    expect(five.map((r) => r.response?.body)).toEqual(Array(5).fill('fast'));
    // One message, or a few on a loaded machine: never one a run.
    expect(results()).toBeLessThan(5);
    // Beside a run still in flight, a finished one waits a moment for company, not for it.
    const started = performance.now();
    const slow = p.run(job(`${f.url}/slow`), signal);
    const fast = await p.run(job(`${f.url}/`), signal);
    expect(fast.response?.body).toBe('fast');
    expect(performance.now() - started).toBeLessThan(600);
    expect((await slow).response?.body).toBe('slow');
  });

  it('says plainly when its entry does not exist', async () => {
    const p = (pool = createWorkerPool({ entry: pathToFileURL('/nonexistent/run-worker.js') }));
    const result = await p.run(job('http://127.0.0.1:9/'), new AbortController().signal);
    expect(result.error?.message).toBe("the run worker's entry /nonexistent/run-worker.js does not exist");
  });

  it('warms every thread before the scheduler may offer: warm() waits for each to say ready, bounded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkwall-slow-worker-'));
    const entry = (name: string, readyAfterMs: number | null) => {
      const say =
        readyAfterMs === null
          ? ''
          : `setTimeout(() => parentPort.postMessage({ kind: 'ready' }), ${readyAfterMs});`;
      writeFileSync(
        join(dir, name),
        `import { parentPort } from 'node:worker_threads'; ${say} setInterval(() => {}, 1000);`,
      );
      return pathToFileURL(join(dir, name));
    };
    const slow = (pool = createWorkerPool({ size: 2, entry: entry('slow.mjs', 300) }));
    let t = performance.now();
    await slow.warm();
    expect(performance.now() - t).toBeGreaterThanOrEqual(290);
    await slow.close();
    // A thread that never says ready does not hold the service's start for long.
    pool = createWorkerPool({ size: 1, entry: entry('mute.mjs', null) });
    t = performance.now();
    await pool.warm(200);
    expect(performance.now() - t).toBeLessThan(2_000);
  });
});

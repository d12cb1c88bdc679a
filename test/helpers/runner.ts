// `checkwall runner` as a child process of the built program (issue 12), and
// a service config with a remote location for it.
import { spawn, type ChildProcess } from 'node:child_process';
import { vi } from 'vitest';
import { request } from 'undici';
import type { ServiceConfig } from '../../src/server/config/schema.js';
import type { CheckResult } from '../../src/api/schemas/index.js';
import { startFixture } from './fixture.js';
import { accountConfig, FAR, NEAR, RUNNER_TOKEN } from './configs.js';
import { TEST_ACCOUNT, type TestService } from './service.js';

export { RUNNER_TOKEN };

export interface RunnerProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when stdout has a line matching `re` (rejects after timeoutMs). */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
}

const started = new Set<ChildProcess>();

export function startRunner(
  service: string,
  opts: { token?: string; location?: string; id?: string; args?: string[] } = {},
): RunnerProcess {
  const args = ['bin/checkwall.js', 'runner', '--service', service, '--location', opts.location ?? 'far'];
  if (opts.id) args.push('--runner-id', opts.id);
  const child = spawn(process.execPath, [...args, ...(opts.args ?? [])], {
    env: { ...process.env, CHECKWALL_RUNNER_TOKEN: opts.token ?? RUNNER_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let out = '';
  let err = '';
  const lines = new EventTarget();
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    lines.dispatchEvent(new Event('data'));
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      started.delete(child);
      resolve({ code, signal });
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (re, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const look = () => {
          if (!re.test(out)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`runner output never matched ${re}:\n${out}\n${err}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          lines.removeEventListener('data', look);
        };
        lines.addEventListener('data', look);
        look();
      }),
  };
}

export function killRunners(): void {
  for (const child of started) child.kill('SIGKILL');
}

/** Polls `ok` until it holds (vitest's bounded poll); the deadline only bounds a broken run. */
export async function until(
  ok: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: () => string,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await ok())) throw new Error(what());
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** One account: check c1 (and more) at the remote location "far" and nothing local. */
export function remoteConfig(
  target: string,
  checks: Array<{ id: string; frequency: string; path?: string; enabled?: boolean }>,
): ServiceConfig {
  return accountConfig({
    locations: [FAR, NEAR],
    checks: checks.map((c) => ({
      id: c.id,
      target: `${target}${c.path ?? `/${c.id}`}`,
      frequency: c.frequency,
      locations: ['far'],
      timeoutMs: 20_000,
      enabled: c.enabled ?? true,
    })),
  });
}

export interface RunnerJob {
  runId: string;
  claimToken: string;
  dueAt: string;
  attempt: number;
}

/**
 * One long poll of a runner of "far", as `checkwall runner` makes it: the jobs it was
 * given; throws when the poll was refused or cut off (`signal`).
 */
export async function claimJobs(
  url: string,
  body: { runnerId: string; max?: number; waitSeconds: number },
  signal?: AbortSignal,
): Promise<RunnerJob[]> {
  const res = await request(`${url}/v1/runner/claim`, {
    method: 'POST',
    headers: { authorization: `Bearer ${RUNNER_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const answer = (await res.body.json()) as { data: { jobs: RunnerJob[] } };
  if (res.statusCode !== 200)
    throw new Error(`the claim was refused: ${res.statusCode} ${JSON.stringify(answer)}`);
  return answer.data.jobs;
}

/** Every stored result of a check of the test account, oldest first (up to 1,000). */
export const storedResults = async (s: TestService, checkId: string): Promise<CheckResult[]> =>
  (
    await s.storage.queryResults({
      accountId: TEST_ACCOUNT,
      checkId,
      from: 0,
      to: Date.now() + 60_000,
      sortBy: 'startedAt',
      sortOrder: 'asc',
      offset: 0,
      limit: 1000,
    })
  ).items;

/**
 * A pass-through between runners and the service (every request forwarded), for
 * `posts()`: how many results each post to /v1/runner/results carried, in order.
 */
export async function resultPostsProxy(service: string) {
  const fixture = await startFixture((req, res) => {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
    fetch(`${service}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' ? undefined : req.body,
    }).then(
      async (answer) => res.writeHead(answer.status).end(Buffer.from(await answer.arrayBuffer())),
      (error: Error) => res.writeHead(502).end(error.message),
    );
  });
  return {
    url: fixture.url,
    posts: () =>
      fixture.seen
        .filter((r) => r.url === '/v1/runner/results')
        .map((r) => (JSON.parse(r.body) as { results: unknown[] }).results.length),
    close: fixture.close,
  };
}

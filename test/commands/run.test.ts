// `checkwall run` against a small service of our own that speaks the wire of
// src/api/schemas/actions.ts: runs finish after a set number of batch reads,
// with the outcome each check is told to have. (The end-to-end test against the
// real service comes with the endpoints.)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CheckRunsCreateSchema, type CheckRun } from '../../src/api/schemas/actions.js';
import { parseTimeout } from '../../src/commands/run-args.js';
import { runRun, type RunIo } from '../../src/commands/run.js';
import { systemClock } from '../../src/domain/clock.js';
import { closedPortUrl, json, startFixture, type Fixture, type SeenRequest } from '../helpers/fixture.js';
import { sampleResult } from '../helpers/samples.js';

const KEY = 'k-run-secret-0123456789';
const ACCOUNT = '00000000-0000-4000-8000-000000000001';

interface CheckPlan {
  locations: string[];
  tags?: string[];
  outcome: 'success' | 'failed' | 'skipped';
  /** Batch reads that see the run unfinished before it is finished. */
  rounds: number;
}

const PLANS: Record<string, CheckPlan> = {
  api: { locations: ['eu-west', 'us-east'], tags: ['deploy'], outcome: 'success', rounds: 2 },
  web: { locations: ['eu-west', 'us-east'], tags: ['deploy'], outcome: 'success', rounds: 1 },
  pay: { locations: ['eu-west'], outcome: 'failed', rounds: 1 },
  far: { locations: ['far-away'], outcome: 'skipped', rounds: 1 },
  slow: { locations: ['eu-west'], outcome: 'success', rounds: Number.POSITIVE_INFINITY },
};

/** The contract's service, in memory: what the other side of `checkwall run` answers. */
function contractService() {
  const runs = new Map<string, { run: CheckRun; reads: number }>();
  let next = 0;
  return (req: SeenRequest, res: Parameters<Parameters<typeof startFixture>[0]>[1]) => {
    const url = new URL(req.url, 'http://fixture');
    if (req.headers['authorization'] !== `Bearer ${KEY}` || req.headers['x-service-account'] !== ACCOUNT) {
      return json(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'unknown key' });
    }
    if (req.method === 'POST' && url.pathname === '/v1/check-runs') {
      const body = CheckRunsCreateSchema.parse(JSON.parse(req.body));
      const unknown = (body.checkIds ?? []).filter((id) => !(id in PLANS));
      if (unknown.length) {
        return json(res, 400, {
          statusCode: 400,
          error: 'Bad Request',
          message: `unknown check ids: ${unknown.join(', ')}\u001b]0;owned\u0007`,
        });
      }
      const chosen = Object.entries(PLANS).filter(
        ([id, plan]) =>
          body.checkIds?.includes(id) || plan.tags?.some((t) => body.tags?.includes(t)) === true,
      );
      const created: CheckRun[] = [];
      for (const [checkId, plan] of chosen) {
        for (const location of plan.locations) {
          if (body.locations && !body.locations.includes(location)) continue;
          const run: CheckRun = {
            runId: `r${++next}`,
            checkId,
            location,
            state: 'queued',
            triggeredBy: body.triggeredBy,
            queuedAt: new Date().toISOString(),
          };
          runs.set(run.runId, { run, reads: 0 });
          created.push(run);
        }
      }
      return json(res, 202, { data: created });
    }
    if (req.method === 'GET' && url.pathname === '/v1/check-runs') {
      const ids = (url.searchParams.get('ids') ?? '').split(',');
      const data = ids.flatMap((id) => {
        const entry = runs.get(id);
        if (!entry) return [];
        entry.reads++;
        const plan = PLANS[entry.run.checkId]!;
        if (entry.reads <= plan.rounds) return [{ ...entry.run, state: 'running' }];
        if (plan.outcome === 'skipped') {
          return [{ ...entry.run, state: 'skipped', reason: 'no runner connected for far-away' }];
        }
        return [{ ...entry.run, state: 'done', status: plan.outcome, resultId: `res-${id}` }];
      });
      return json(res, 200, { data });
    }
    const results = /^\/v1\/check-results\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && results) {
      const checkId = decodeURIComponent(results[1]!);
      const data = [...runs.values()]
        .filter((e) => e.run.checkId === checkId)
        .map((e) =>
          sampleResult(`res-${e.run.runId}`, {
            checkId,
            status: 'failed',
            triggeredBy: 'api',
            duration: 1_200,
            assertions: [
              {
                source: 'STATUS_CODE',
                property: '',
                comparison: 'EQUALS',
                target: '200',
                passed: false,
                actual: '503\u001b[2J',
              },
            ],
          }),
        );
      return json(res, 200, {
        data,
        meta: {
          checkId,
          checkName: checkId,
          currentPage: 1,
          totalPages: 1,
          totalItems: data.length,
          limit: 100,
          hasMore: false,
          timeframe: { from: '2026-11-27T00:00:00.000Z', to: '2026-11-27T01:00:00.000Z' },
        },
      });
    }
    return json(res, 404, {
      statusCode: 404,
      error: 'Not Found',
      message: `no route ${req.method} ${url.pathname}`,
    });
  };
}

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture(contractService());
});
afterEach(() => {
  fixture.handle(contractService());
  fixture.seen.length = 0;
});
afterAll(() => fixture.close());

async function run(args: string[], options: { tty?: boolean; baseUrl?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const io: RunIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stderrIsTTY: options.tty ?? false,
    env: {
      CHECKWALL_BASE_URL: options.baseUrl ?? fixture.url,
      CHECKWALL_API_KEY: KEY,
      CHECKWALL_ACCOUNT_ID: ACCOUNT,
      XDG_CONFIG_HOME: '/nonexistent-checkwall',
    },
    clock: systemClock,
    pollMs: 10,
  };
  const code = await runRun(args, io);
  return { code, stdout, stderr, lines: stdout.trimEnd().split('\n') };
}

const batchReads = () =>
  fixture.seen.filter((r) => r.method === 'GET' && r.url.startsWith('/v1/check-runs?'));

describe('checkwall run', () => {
  it('exits 0 with one line per run when every run passes, reading all runs in one request per round', async () => {
    const { code, lines, stderr } = await run(['--tag', 'deploy']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toMatch(/^passed\s+(api|web)\s+(eu-west|us-east)\b/);
    const post = fixture.seen.find((r) => r.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ tags: ['deploy'], triggeredBy: 'api' });
    // A passed run's time is read from its result: not "—".
    for (const line of lines) expect(line).toMatch(/\s1\.20 s$/);
    // api needs three reads and web two: three rounds, the first naming all four runs, and
    // never a read of one run; one read of results per check, for the runs' times.
    const reads = batchReads();
    expect(reads).toHaveLength(3);
    expect(new URL(reads[0]!.url, fixture.url).searchParams.get('ids')!.split(',')).toHaveLength(4);
    expect(new URL(reads[2]!.url, fixture.url).searchParams.get('ids')!.split(',')).toHaveLength(2);
    expect(fixture.seen.filter((r) => /^\/v1\/check-runs\//.test(r.url))).toEqual([]);
    expect(fixture.seen.filter((r) => r.url.startsWith('/v1/check-results/'))).toHaveLength(2);
  });

  it('exits 1 when a run fails, naming the failed assertion read from its result, sanitised', async () => {
    const { code, lines } = await run(['api', 'pay', '--location', 'eu-west']);
    expect(code).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^passed\s+api\s+eu-west\s+1\.20 s$/);
    expect(lines[1]).toMatch(/^failed\s+pay\s+eu-west\s+1\.20 s\s+STATUS_CODE equals 200, got 503$/);
    const resultReads = fixture.seen.filter((r) => r.url.startsWith('/v1/check-results/pay'));
    expect(resultReads).toHaveLength(1);
    const query = new URL(resultReads[0]!.url, fixture.url).searchParams;
    expect(query.get('triggeredBy')).toBe('api');
    expect(query.get('from')).not.toBeNull();
  });

  it('exits 1 when a run is skipped, with the service’s reason', async () => {
    const { code, lines } = await run(['web', 'far']);
    expect(code).toBe(1);
    expect(lines.find((l) => l.startsWith('skipped'))).toMatch(
      /^skipped\s+far\s+far-away\s+—\s+not run: no runner connected for far-away$/,
    );
    expect(lines.filter((l) => l.startsWith('passed'))).toHaveLength(2);
  });

  it('exits 2 with the service’s message, sanitised, when it refuses an unknown check id', async () => {
    const { code, stdout, stderr } = await run(['api', 'nope']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('answered 400: unknown check ids: nope');
    expect(stderr).not.toContain('\u001b');
    expect(stderr).not.toContain('\u0007');
    expect(batchReads()).toEqual([]);
  });

  it('exits 2 when the selection matches no check', async () => {
    const { code, stderr } = await run(['--tag', 'nothing-has-this']);
    expect(code).toBe(2);
    expect(stderr).toBe('checkwall run: no check matches the selection\n');
  });

  it('exits 2 at the timeout, with the finished runs and the unfinished one named', async () => {
    const { code, lines, stderr } = await run(['web', 'slow', '--timeout', '300ms']);
    expect(code).toBe(2);
    expect(lines.filter((l) => l.startsWith('passed'))).toHaveLength(2);
    expect(lines.find((l) => l.startsWith('unfinished'))).toMatch(
      /^unfinished\s+slow\s+eu-west\s+—\s+still running when the wait ended$/,
    );
    expect(stderr).toBe('checkwall run: timed out after 300 ms: 1 of 3 runs unfinished\n');
  });

  it('exits 2 at the timeout when the service does not answer the request that creates runs', async () => {
    fixture.handle(() => undefined);
    const { code, stdout, stderr } = await run(['api', '--timeout', '200ms']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('checkwall run: timed out after 200 ms before the service took the runs\n');
  });

  it('exits 2 when the service cannot be reached, without the key', async () => {
    const { code, stderr } = await run(['api'], { baseUrl: await closedPortUrl() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^checkwall run: network: POST \/v1\/check-runs could not reach the service/);
    expect(stderr).not.toContain(KEY);
  });

  it('prints the runs as a JSON array with --json, each with its outcome and any failure', async () => {
    const { code, stdout } = await run([
      'web',
      'pay',
      'far',
      '--json',
      '--location',
      'eu-west',
      '--location',
      'far-away',
    ]);
    expect(code).toBe(1);
    const runs = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(runs.map((r) => [r['checkId'], r['location'], r['outcome']])).toEqual([
      ['web', 'eu-west', 'passed'],
      ['pay', 'eu-west', 'failed'],
      ['far', 'far-away', 'skipped'],
    ]);
    expect(runs[1]).toMatchObject({
      state: 'done',
      status: 'failed',
      failure: 'STATUS_CODE equals 200, got 503\u001b[2J',
      duration: 1200,
    });
    expect(runs[2]).toMatchObject({ state: 'skipped', reason: 'no runner connected for far-away' });
    for (const r of runs) expect(r).toHaveProperty('runId');
  });

  it('keeps waiting through a failed batch read, after what Retry-After asks', async () => {
    const serve = contractService();
    let refused = false;
    fixture.handle((req, res) => {
      if (!refused && req.url.startsWith('/v1/check-runs?')) {
        refused = true;
        return json(
          res,
          503,
          { statusCode: 503, error: 'Service Unavailable', message: 'busy' },
          { 'retry-after': '1' },
        );
      }
      return serve(req, res);
    });
    const { code } = await run(['web', '--location', 'eu-west']);
    expect(code).toBe(0);
    const [first, second] = batchReads();
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('sends the request that creates runs once when the connection drops, and exits 2', async () => {
    fixture.handle((req, res) => {
      if (req.method === 'POST') res.socket?.destroy();
    });
    const { code, stderr } = await run(['api']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/network: POST \/v1\/check-runs/);
    expect(fixture.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('shows progress on stderr only when it is a terminal, and clears it', async () => {
    const { code, stderr } = await run(['web', '--location', 'eu-west'], { tty: true });
    expect(code).toBe(0);
    expect(stderr).toContain('checkwall run: 0 of 1 runs finished');
    expect(stderr.endsWith('\r\u001b[K')).toBe(true);
  });

  it.each([
    [[], 'name the checks to run: check ids, --tag or --group'],
    [['api', '--bogus'], "Unknown option '--bogus'"],
    [['api', '--timeout', 'soon'], '--timeout: "soon" is not a duration'],
    [['--location', 'eu-west'], 'name the checks to run'],
    [Array.from({ length: 101 }, (_, i) => `c${i}`), 'checkIds: Too big'],
  ])('exits 2 with the usage for %j', async (args, message) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: checkwall run');
    expect(fixture.seen).toEqual([]);
  });

  it('exits 2 naming what is missing when there are no connection settings', async () => {
    let stderr = '';
    const code = await runRun(['api'], {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
      stderrIsTTY: false,
      env: { XDG_CONFIG_HOME: '/nonexistent-checkwall' },
      clock: systemClock,
      pollMs: 10,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('CHECKWALL_BASE_URL');
  });
});

describe('--timeout', () => {
  it.each([
    ['120s', 120_000],
    ['2m', 120_000],
    ['500ms', 500],
    ['90', 90_000],
    ['1.5s', 1_500],
    ['0s', undefined],
    ['-1s', undefined],
    ['soon', undefined],
  ])('%s is %s ms', (text, ms) => {
    expect(parseTimeout(text)).toBe(ms);
  });
});

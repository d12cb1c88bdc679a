// The loop of `checkwall runner`: claim the location's due runs from the
// service (a long poll), run them here, post each result. The service may go
// away at any time (a restart, a network cut): the runner backs off and keeps
// the results it finished, up to OUTBOX_LIMIT, posting them when it is back.
// Results finished within GATHER_MS of each other go in one post: posted as each
// run ends, a busy runner makes as many requests as runs, most of them of one result.
// It says so in one line per change of state, never one per run.
import {
  MAX_RESULTS_PER_POST,
  RunnerResultsAnswerSchema,
  type RunnerClaimBody,
  type RunnerJob,
  type RunnerResultBody,
  type RunnerResultItem,
} from '../../api/schemas/runner.js';
import { Agent } from 'undici';
import { backoffDelay } from '../../domain/backoff.js';
import { deadline } from '../../domain/deadline.js';
import { failure, jobsOf, lostReason, message, postJson, type Answer } from './remote-post.js';
import type { RunResult } from './types.js';

export interface RunnerLoopOptions {
  service: string;
  location: string;
  token: string;
  runnerId: string;
  concurrency: number;
  execute(job: RunnerJob, signal: AbortSignal): Promise<RunResult>;
  log(line: string): void;
  /** Long poll length (seconds). */
  waitSeconds?: number;
}

export const OUTBOX_LIMIT = 1_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 30_000;
const POST_TIMEOUT_MS = 30_000;
// A post's body stays well under the service's 12 MB limit, each result counted at its
// size as sent: a post past the limit is refused whole (413), and its results are dropped.
const POST_BYTES = 4 * 1024 * 1024;
/** How long a finished result waits for others to go with it. */
export const GATHER_MS = 200;
/** On stop, the last post of what finished gets this long. */
const LAST_POST_MS = 2_000;

/** The service refused the runner for good (a bad token, a wrong location): no retry helps. */
export class RunnerRefused extends Error {}

interface Done {
  runId: string;
  body: RunnerResultBody;
  /** Its size in a post (JSON): a stored body may be as long as the service's maxStoredBodyBytes. */
  bytes: number;
}

export function createRunnerLoop(opts: RunnerLoopOptions) {
  const outbox: Done[] = [];
  /** The runs in flight, by run id, with the claim they report under. */
  const running = new Map<string, { controller: AbortController; claimToken: string }>();
  const stop = new AbortController();
  let dropped = 0;
  let failures = 0;
  let state: 'starting' | 'connected' | 'lost' = 'starting';
  let flushing: Promise<void> | undefined;
  /** The last claim got as many runs as it asked for: more are likely waiting. */
  let behind = false;
  /** The service answered 404 to a post of many results: they go one at a time. */
  let alone = false;
  let wakeClaim: (() => void) | undefined;
  let gathering: NodeJS.Timeout | undefined;
  /** stop(): runs are over, and the last post is bounded by its own time, not by the stop. */
  let closing = false;
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  const headers = { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json' };

  function connected() {
    if (state === 'connected') return;
    if (state === 'lost')
      opts.log(`back in touch with ${opts.service}; ${outbox.length} finished results to post`);
    else opts.log(`connected to ${opts.service} for location ${opts.location}`);
    state = 'connected';
    failures = 0;
  }

  function lost(why: string) {
    if (state !== 'lost') opts.log(lostLine(opts.service, why));
    state = 'lost';
  }

  async function post(path: string, body: unknown, timeoutMs: number): Promise<Answer> {
    // A stop cuts a post short, but not the last one, which has its own (shorter) time.
    const clock = closing
      ? deadline(undefined, Math.min(timeoutMs, LAST_POST_MS))
      : deadline(stop.signal, timeoutMs);
    // The service may live under a path prefix (https://host/checkwall): keep it.
    const url = `${opts.service.replace(/\/+$/, '')}${path}`;
    const answer = await postJson(url, body, { headers, dispatcher, clock });
    if (answer.status === 401 || answer.status === 403)
      throw new RunnerRefused(`the service refused this runner: ${await message(answer)}`);
    return answer;
  }

  async function claim(max: number, waitSeconds: number): Promise<RunnerJob[]> {
    const body: RunnerClaimBody = { runnerId: opts.runnerId, location: opts.location, max, waitSeconds };
    const res = await post('/v1/runner/claim', body, waitSeconds * 1000 + 15_000);
    if (!res.ok) throw await failure(res);
    return jobsOf(await res.json().catch(() => undefined));
  }

  /**
   * Posts what is finished, oldest first, many at a time; stops at the first failure
   * to reach the service. A result the service refuses for good (4xx: given to another
   * runner, or not this location's) leaves the outbox as a stored one does.
   */
  async function flushOnce() {
    while (outbox.length > 0) {
      const batch = alone ? [outbox[0]!] : nextBatch(outbox);
      const stored = alone ? await postAlone(batch[0]!) : await postBatch(batch);
      if (stored === undefined) continue; // the service cannot take many at once: post alone
      // By identity: while this post was out, a full outbox may have dropped its oldest.
      for (const done of batch) {
        const at = stored.includes(done) ? outbox.indexOf(done) : -1;
        if (at >= 0) outbox.splice(at, 1);
      }
      connected();
      if (stored.length < batch.length)
        throw new Error(`the service could not store ${batch.length - stored.length} results`);
    }
  }

  /** What leaves the outbox (stored, or refused for good); undefined when there is no batch endpoint. */
  async function postBatch(batch: Done[]): Promise<Done[] | undefined> {
    const results: RunnerResultItem[] = batch.map((done) => ({ runId: done.runId, ...done.body }));
    const res = await post('/v1/runner/results', { results }, POST_TIMEOUT_MS);
    if (res.status >= 500) throw new Error(`HTTP ${res.status}`);
    if (res.status === 404) {
      await res.discard();
      alone = true;
      opts.log('the service takes results one at a time (an older version): posting them so');
      return undefined;
    }
    if (!res.ok) {
      // A refusal of the whole post is final as a result's own would be: said once, not retried.
      opts.log(`the service refused ${batch.length} results: ${await message(res)}`);
      return batch;
    }
    const { answers } = RunnerResultsAnswerSchema.parse(await res.json()).data;
    return batch.filter((_, i) => (answers[i]?.status ?? 500) < 500);
  }

  async function postAlone(done: Done): Promise<Done[]> {
    const path = `/v1/runner/runs/${encodeURIComponent(done.runId)}/result`;
    const res = await post(path, done.body, POST_TIMEOUT_MS);
    if (res.status >= 500) throw new Error(`HTTP ${res.status}`);
    // 2xx stored; a 4xx is final (409: the run went to another runner): either way it leaves the outbox.
    if (!res.ok) await res.discard();
    else await res.json();
    return [done];
  }

  /** One flush at a time; the loop's own awaits it and learns of a failure, a run's is quiet. */
  const flush = () => (flushing ??= flushOnce().finally(() => (flushing = undefined)));

  /** A run's result goes out within GATHER_MS with those finished meanwhile, or at once when a post is full. */
  function postSoon() {
    if (state !== 'connected' || stop.signal.aborted) return;
    const full = outbox.length >= MAX_RESULTS_PER_POST;
    if (gathering && !full) return;
    clearTimeout(gathering);
    gathering = setTimeout(
      () => {
        gathering = undefined;
        void flush().catch(() => undefined);
      },
      full ? 0 : GATHER_MS,
    );
  }

  function keep(done: Done) {
    outbox.push(done);
    if (outbox.length > OUTBOX_LIMIT) {
      outbox.shift();
      dropped++;
      if (dropped === 1 || dropped % 100 === 0)
        opts.log(`${dropped} finished results dropped so far: more than ${OUTBOX_LIMIT} waiting to post`);
    }
  }

  function start(job: RunnerJob) {
    // Given again while it still runs here (its lease ran out): run again, each run's report
    // was refused as late, and the run was never stored. It goes on, reported under the new claim.
    const held = running.get(job.runId);
    if (held) return void (held.claimToken = job.claimToken);
    const controller = new AbortController();
    const run = { controller, claimToken: job.claimToken };
    running.set(job.runId, run);
    void opts
      .execute(job, controller.signal)
      .then((result) => {
        const { screenshot, ...rest } = result;
        const body: RunnerResultBody = { claimToken: run.claimToken, result: rest };
        if (screenshot) body.screenshot = Buffer.from(screenshot).toString('base64');
        const bytes = Buffer.byteLength(JSON.stringify(body));
        if (!controller.signal.aborted) keep({ runId: job.runId, body, bytes });
      })
      .finally(() => {
        running.delete(job.runId);
        wakeClaim?.();
        // A failure to post is found by the loop's next claim; here a result just goes out soon.
        postSoon();
      });
  }

  /** Resolves after ms, or sooner when a run frees a slot or the runner stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeClaim = undefined;
        stop.signal.removeEventListener('abort', done);
        resolve();
      }
      wakeClaim = done;
      stop.signal.addEventListener('abort', done, { once: true });
    });

  async function run(): Promise<void> {
    while (!stop.signal.aborted) {
      try {
        // After a loss, what finished goes before anything else; in touch, it goes out gathered
        // (postSoon), here too when a quiet post failed and no run has ended since.
        if (outbox.length > 0 && state !== 'connected') await flush();
        else if (outbox.length > 0) postSoon();
        const free = opts.concurrency - running.size;
        // Behind (the last claim was given all it asked for): claim when half the slots are
        // free, not as each run ends, so a backlog is taken many runs a claim, not one.
        if (free <= 0 || (behind && free < Math.ceil(opts.concurrency / 2))) {
          await pause(60_000);
          continue;
        }
        // While the service is away, a quick look rather than a long poll: back as soon as it is.
        const jobs = await claim(free, state === 'lost' ? 0 : (opts.waitSeconds ?? 10));
        behind = jobs.length === free;
        connected();
        for (const job of jobs) start(job);
      } catch (error) {
        if (error instanceof RunnerRefused) throw error;
        if (stop.signal.aborted) break;
        lost(lostReason(error));
        await pause(backoffDelay(failures++, BACKOFF_BASE_MS, BACKOFF_MAX_MS));
      }
    }
  }

  return {
    run,
    /** Stops claiming, gives runs in flight `graceMs` to finish, then abandons them, posts what it can. */
    async stop(graceMs: number) {
      stop.abort();
      const until = Date.now() + graceMs;
      while (running.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      for (const { controller } of running.values()) controller.abort(new Error('the runner is stopping'));
      clearTimeout(gathering);
      // What finished is posted once more, on its own clock (the stop aborted the posts in flight).
      await flushing?.catch(() => undefined);
      closing = true;
      if (state === 'connected' && outbox.length > 0) await flush().catch(() => undefined);
      // Its kept-alive connections would hold the process open.
      await dispatcher.destroy().catch(() => undefined);
      return { abandoned: running.size, unposted: outbox.length };
    },
    stats: () => ({ running: running.size, outbox: outbox.length, dropped, state }),
  };
}

/** The oldest finished results, up to MAX_RESULTS_PER_POST and about POST_BYTES (at least one). */
function nextBatch(outbox: readonly Done[]): Done[] {
  let bytes = 0;
  const batch: Done[] = [];
  for (const done of outbox) {
    if (batch.length === MAX_RESULTS_PER_POST) break;
    if (batch.length > 0 && bytes + done.bytes > POST_BYTES) break;
    bytes += done.bytes;
    batch.push(done);
  }
  return batch;
}

const lostLine = (service: string, why: string) =>
  `lost the service at ${service} (${why}); retrying with backoff, finished results are kept`;

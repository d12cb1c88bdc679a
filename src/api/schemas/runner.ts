// The wire of /v1/runner/ (docs/runners.md): how a `checkwall runner` takes the runs of
// its remote location and hands their results back. Shared by the service and
// the runner command, as the rest of schemas/ is by the service and the console.
//
//   POST /v1/runner/claim                   { runnerId, max, waitSeconds } -> { data: { jobs } }
//   POST /v1/runner/runs/:runId/result      { claimToken, result, screenshot? } -> { data: { stored } }
//   POST /v1/runner/results                 { results: [{ runId, claimToken, result, screenshot? }] }
//                                           -> { data: { answers: [{ runId, status, message? }] } }
//
// The second form posts many results at once (what `checkwall runner` sends): each
// is answered on its own, with the status the first form would have had.
//
// Both carry Authorization: Bearer <the location's runner token>. A job is the
// run protocol's RunJob (server/runners/job-protocol.ts) with the run it is for;
// its check is checked again by the runner against the config schema.
import { z } from 'zod';
import { TimestampSchema } from './common.js';
import { TriggerSchema } from './enums.js';
import { CheckResultSchema, LocationRefSchema } from './results.js';

/** Longest a claim waits for a run to be offered before it answers with none. */
export const MAX_CLAIM_WAIT_SECONDS = 20;

export const RunnerClaimBodySchema = z.strictObject({
  /** Names this runner process in the service's records of who is connected (not a secret). */
  runnerId: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, 'must be 1-100 letters, digits, . _ : or -'),
  /** The location this runner was started for: a token of another location is refused (403), not obeyed. */
  location: z.string().min(1).max(64).optional(),
  max: z.number().int().min(1).max(100).default(10),
  waitSeconds: z.number().min(0).max(MAX_CLAIM_WAIT_SECONDS).default(10),
});
export type RunnerClaimBody = z.input<typeof RunnerClaimBodySchema>;

export const RunJobSchema = z.looseObject({
  accountId: z.string(),
  check: z.looseObject({ id: z.string(), name: z.string(), type: z.string() }),
  location: LocationRefSchema,
  triggeredBy: TriggerSchema,
  maxStoredBodyBytes: z.number().int().min(0),
});

export const RunnerJobSchema = z.looseObject({
  runId: z.string(),
  /** Proves the run was given to this claim; the result must carry it back. */
  claimToken: z.string(),
  dueAt: TimestampSchema,
  leaseUntil: TimestampSchema,
  attempt: z.number().int(),
  job: RunJobSchema,
});
export type RunnerJob = z.infer<typeof RunnerJobSchema>;

export const RunnerClaimAnswerSchema = z.looseObject({
  data: z.looseObject({ jobs: z.array(RunnerJobSchema) }),
});

export const RunnerResultBodySchema = z.strictObject({
  claimToken: z.string().min(1).max(200),
  /**
   * DECISION: a runner's result keeps only the fields a result has: read as the API serves it,
   * a result passes unknown fields on (a newer service's), but a runner is another machine, and
   * a field it made up would be stored and served as the service's own.
   */
  result: z.object(CheckResultSchema.shape),
  /** A browser run's PNG, base64. */
  screenshot: z.base64().max(8_000_000).optional(),
});
export type RunnerResultBody = z.input<typeof RunnerResultBodySchema>;

/** stored false never happens with 200: a refused result is a 4xx (409: the run is someone else's now). */
export const RunnerResultAnswerSchema = z.looseObject({ data: z.looseObject({ stored: z.boolean() }) });

/** Up to this many results go in one post of /v1/runner/results. */
export const MAX_RESULTS_PER_POST = 100;

export const RunnerResultsBodySchema = z.strictObject({
  // Each is checked on its own (RunnerResultItemSchema): a bad one refuses only itself.
  results: z.array(z.unknown()).min(1).max(MAX_RESULTS_PER_POST),
});

export const RunnerResultItemSchema = RunnerResultBodySchema.extend({
  runId: z.string().min(1).max(100),
});
export type RunnerResultItem = z.input<typeof RunnerResultItemSchema>;

/** status 200: stored; another 4xx: refused for good (drop it); 5xx: post it again later. */
export const RunnerResultsAnswerSchema = z.looseObject({
  data: z.looseObject({
    answers: z.array(
      z.looseObject({ runId: z.string(), status: z.number().int(), message: z.string().optional() }),
    ),
  }),
});

export const RunIdParamsSchema = z.strictObject({ runId: z.string().min(1).max(100) });

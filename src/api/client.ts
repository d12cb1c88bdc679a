// The client of the monitoring interface: one method per endpoint of spec
// section 4, with the auth headers, timeouts, retries of idempotent reads and
// validation of every answer against the shared schemas.
import { Agent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { ApiError, parseRetryAfter } from './errors.js';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry.js';
import { bodyDigest, createSameBodyMemo } from './same-body.js';
import { channelCalls } from './client-channels.js';
import type { CallOptions, QueryValue, Req } from './request.js';
import {
  AuditEventListSchema,
  CheckRunListSchema,
  CheckRunSchema,
  CheckStatusAnswerSchema,
  MAX_RUNS_PER_REQUEST,
  MeSchema,
  type AuditEventList,
  type AuditEventsQuery,
  type CheckRun,
  type CheckRunList,
  type CheckRunsCreate,
  type CheckStatusAnswer,
  type Me,
} from './schemas/actions.js';
import {
  MaintenanceWindowListSchema,
  MaintenanceWindowSchema,
  type MaintenanceCreate,
  type MaintenanceListQuery,
  type MaintenancePatch,
  type MaintenanceWindow,
  type MaintenanceWindowList,
} from './schemas/maintenance.js';
import {
  AlertNotificationListSchema,
  CheckAlertSchema,
  CheckHistoryListSchema,
  ApiErrorBodySchema,
  describeIssues,
  CheckResultListSchema,
  CheckStatusListSchema,
  DashboardListSchema,
  MetricCatalogueSchema,
  PublicDashboardSchema,
  type AlertNotificationList,
  type AlertNotificationsQuery,
  type CheckAlert,
  type CheckHistoryList,
  type CheckHistoryQuery,
  type CheckResultList,
  type CheckResultsQuery,
  type CheckStatusList,
  type CheckStatusesQuery,
  type DashboardList,
  type DashboardsQuery,
  type MetricCatalogue,
  type MetricsQuery,
  type PublicDashboard,
} from './schemas/index.js';

export interface ClientOptions {
  baseUrl: string;
  /** Both are required for every endpoint but the public dashboard read. */
  apiKey?: string | undefined;
  accountId?: string | undefined;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** For tests and for callers that share a connection pool. */
  dispatcher?: Dispatcher;
}

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, headersMs: 10_000, bodyMs: 15_000 };
export type { RetryPolicy } from './retry.js';
export type { CallOptions } from './request.js';
export type MonitoringClient = ReturnType<typeof createClient>;

export { readAllPages, readAllStatuses, type AllStatuses } from './read-all.js';

export function createClient(options: ClientOptions) {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const base = options.baseUrl.replace(/\/+$/, '');
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
    });
  const secret = options.apiKey;
  const sameBodies = createSameBodyMemo();

  const call = <S extends z.ZodType>(req: Req, schema: S, opts: CallOptions = {}) => {
    const again = req.retry ?? (req.method === 'GET' ? 'always' : 'never');
    const attempt =
      again === 'refused'
        ? () => onlyRefusalsRetryable(once(req, schema, opts))
        : () => once(req, schema, opts);
    return withRetries(attempt, again === 'never' ? { ...retry, retries: 0 } : retry, opts.signal);
  };

  /** One exchange: the body and its ETag, or `undefined` for a 304 to `ifNoneMatch`. */
  async function exchange(
    req: Req,
    opts: CallOptions,
    accept: string,
    ifNoneMatch?: string,
  ): Promise<Answer | undefined> {
    const endpoint = `${req.method} ${req.path}`;
    const headers: Record<string, string> = { accept };
    if (req.auth) Object.assign(headers, authHeaders(options));
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
    let res: Dispatcher.ResponseData;
    let bytes: Buffer;
    try {
      res = await request(urlOf(req), {
        method: req.method,
        headers,
        body: req.body === undefined ? null : JSON.stringify(req.body),
        dispatcher,
        signal: opts.signal,
      });
      bytes = Buffer.from(await res.body.arrayBuffer());
    } catch (error) {
      if (opts.signal?.aborted) throw error;
      throw transportError(error, endpoint, secret);
    }
    if (res.statusCode === 304 && ifNoneMatch !== undefined) return undefined;
    if (res.statusCode >= 400) throw httpError(res, bytes.toString('utf8'), endpoint, secret);
    const etag = res.headers['etag'];
    return { bytes, etag: typeof etag === 'string' ? etag : undefined, endpoint };
  }

  async function png(req: Req, opts: CallOptions): Promise<Uint8Array> {
    // Never conditional: no If-None-Match is sent, so there is always a body.
    const { endpoint, bytes } = (await exchange(req, opts, 'image/png'))!;
    if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) failDecode(endpoint, 'the body is not a PNG image');
    return new Uint8Array(bytes);
  }

  const urlOf = (req: Req) => base + req.path + toQueryString(req.query);

  async function once<S extends z.ZodType>(req: Req, schema: S, opts: CallOptions): Promise<z.output<S>> {
    const url = urlOf(req);
    const known = req.reuse ? sameBodies.etag(url) : undefined;
    const answer = await exchange(req, opts, 'application/json', known);
    // A 204 (or an empty 200) to a request that allows it: nothing to read.
    if (req.mayBeEmpty && answer?.bytes.length === 0) return null as z.output<S>;
    if (answer === undefined) {
      const kept = sameBodies.last<z.output<S>>(url);
      // Forgotten between asking and the answer (the memo is bounded): ask again, unconditionally.
      return kept ?? once({ ...req, reuse: false }, schema, opts);
    }
    const parse = () => decode(answer.bytes.toString('utf8'), schema, answer.endpoint, secret);
    return req.reuse ? sameBodies.parse(url, answer.bytes, parse, answer.etag) : parse();
  }

  /**
   * A read that says whether the page changed since the caller's `known` ETag or
   * digest, without the client keeping the value: the poll worker keeps only
   * digests of 100 pages, not 100 parsed pages.
   */
  const ifChanged = <S extends z.ZodType>(req: Req, schema: S, known: KnownPage, opts: CallOptions = {}) =>
    withRetries(
      async (): Promise<PageRead<z.output<S>>> => {
        const answer = await exchange(req, opts, 'application/json', known.etag);
        if (answer === undefined) return { changed: false, etag: known.etag, digest: known.digest };
        const digest = bodyDigest(answer.bytes);
        if (digest === known.digest) return { changed: false, etag: answer.etag, digest };
        const value = decode(answer.bytes.toString('utf8'), schema, answer.endpoint, secret);
        return { changed: true, value, etag: answer.etag, digest };
      },
      retry,
      opts.signal,
    );

  return {
    baseUrl: base,
    checkResults: (
      checkId: string,
      query: CheckResultsQuery = {},
      opts?: CallOptions,
    ): Promise<CheckResultList> =>
      call(
        {
          method: 'GET',
          path: `/v1/check-results/${encodeURIComponent(checkId)}`,
          query,
          auth: true,
          reuse: true,
        },
        CheckResultListSchema,
        opts,
      ),
    /** A check's hourly or daily roll-ups (DECISION, docs/status-page.md: /v1/check-history/{checkId}). */
    checkHistory: (
      checkId: string,
      query: CheckHistoryQuery = {},
      opts?: CallOptions,
    ): Promise<CheckHistoryList> =>
      call(
        {
          method: 'GET',
          path: `/v1/check-history/${encodeURIComponent(checkId)}`,
          query,
          auth: true,
          reuse: true,
        },
        CheckHistoryListSchema,
        opts,
      ),
    checkStatuses: (query: CheckStatusesQuery = {}, opts?: CallOptions): Promise<CheckStatusList> =>
      call(
        { method: 'GET', path: '/v1/check-statuses', query, auth: true, reuse: true },
        CheckStatusListSchema,
        opts,
      ),
    /** A page of statuses, or word that it did not change since `known` (the poll worker's read). */
    checkStatusesIfChanged: (query: CheckStatusesQuery, known: KnownPage, opts?: CallOptions) =>
      ifChanged(
        { method: 'GET', path: '/v1/check-statuses', query, auth: true },
        CheckStatusListSchema,
        known,
        opts,
      ),
    dashboards: (query: DashboardsQuery = {}, opts?: CallOptions): Promise<DashboardList> =>
      call(
        { method: 'GET', path: '/v1/dashboards', query, auth: true, reuse: true },
        DashboardListSchema,
        opts,
      ),
    ...channelCalls(call),
    alertNotifications: (
      query: AlertNotificationsQuery = {},
      opts?: CallOptions,
    ): Promise<AlertNotificationList> =>
      call(
        { method: 'GET', path: '/v1/alert-notifications', query, auth: true },
        AlertNotificationListSchema,
        opts,
      ),
    acknowledgeAlert: (alertId: string, opts?: CallOptions): Promise<CheckAlert> =>
      call(
        {
          method: 'POST',
          path: `/v1/check-alerts/${encodeURIComponent(alertId)}/acknowledge`,
          auth: true,
        },
        CheckAlertSchema,
        opts,
      ),
    metrics: (checkType: string, query: MetricsQuery = {}, opts?: CallOptions): Promise<MetricCatalogue> =>
      call(
        { method: 'GET', path: `/v1/analytics/metrics/${encodeURIComponent(checkType)}`, query, auth: true },
        MetricCatalogueSchema,
        opts,
      ),
    /** Who the key is: its account, its name and its role (DECISION: GET /v1/me). */
    me: (opts?: CallOptions): Promise<Me> =>
      call({ method: 'GET', path: '/v1/me', auth: true }, MeSchema, opts),
    /**
     * Runs now every check the body selects, once per location (202: the runs, queued).
     * Retried only when the service refused it before doing anything (429): after a
     * lost connection the runs may exist, and a second request would be a second
     * trigger in the audit trail even where the service coalesces the runs.
     */
    createCheckRuns: (body: CheckRunsCreate, opts?: CallOptions): Promise<CheckRunList> =>
      call(
        { method: 'POST', path: '/v1/check-runs', body, auth: true, retry: 'refused' },
        CheckRunListSchema,
        opts,
      ),
    /** Many runs in one read (at most MAX_RUNS_PER_REQUEST ids): what a waiting caller polls. */
    checkRuns: (ids: readonly string[], opts?: CallOptions): Promise<CheckRunList> => {
      if (ids.length === 0 || ids.length > MAX_RUNS_PER_REQUEST) {
        return Promise.reject(
          new RangeError(`checkRuns reads 1 to ${MAX_RUNS_PER_REQUEST} runs at once, not ${ids.length}`),
        );
      }
      return call(
        { method: 'GET', path: '/v1/check-runs', query: { ids: [...ids] }, auth: true },
        CheckRunListSchema,
        opts,
      );
    },
    checkRun: (runId: string, opts?: CallOptions): Promise<CheckRun> =>
      call(
        { method: 'GET', path: `/v1/check-runs/${encodeURIComponent(runId)}`, auth: true },
        CheckRunSchema,
        opts,
      ),
    /** A person's pause: idempotent (pausing a paused check changes nothing), so retried as a read is. */
    pauseCheck: (checkId: string, opts?: CallOptions): Promise<CheckStatusAnswer> =>
      call(
        { method: 'POST', path: checkPath(checkId, 'pause'), auth: true, retry: 'always' },
        CheckStatusAnswerSchema,
        opts,
      ),
    resumeCheck: (checkId: string, opts?: CallOptions): Promise<CheckStatusAnswer> =>
      call(
        { method: 'POST', path: checkPath(checkId, 'resume'), auth: true, retry: 'always' },
        CheckStatusAnswerSchema,
        opts,
      ),
    /** Maintenance windows (docs/maintenance.md): `state` and `checkId` narrow the list. */
    maintenanceWindows: (query: MaintenanceQuery = {}, opts?: CallOptions): Promise<MaintenanceWindowList> =>
      call(
        { method: 'GET', path: '/v1/maintenance-windows', query, auth: true },
        MaintenanceWindowListSchema,
        opts,
      ),
    maintenanceWindow: (id: string, opts?: CallOptions): Promise<MaintenanceWindow> =>
      call({ method: 'GET', path: windowPath(id), auth: true }, MaintenanceWindowSchema, opts),
    /**
     * Starts or schedules a window. Sent again only after a 429 (refused before
     * anything was done): after a lost connection the window may exist, and a
     * second one would be a second silence in the audit trail.
     */
    createMaintenanceWindow: (body: MaintenanceCreate, opts?: CallOptions): Promise<MaintenanceWindow> =>
      call(
        { method: 'POST', path: '/v1/maintenance-windows', body, auth: true, retry: 'refused' },
        MaintenanceWindowSchema,
        opts,
      ),
    /**
     * Extends (a later `endsAt`) or ends (`"now"`) a window, or renames it. Not
     * retried blindly either: each change is an audit event of its own.
     */
    patchMaintenanceWindow: (
      id: string,
      body: MaintenancePatch,
      opts?: CallOptions,
    ): Promise<MaintenanceWindow> =>
      call(
        { method: 'PATCH', path: windowPath(id), body, auth: true, retry: 'refused' },
        MaintenanceWindowSchema,
        opts,
      ),
    /** Cancels a scheduled window (or a series), ends an active one: the window as it is after, or null on a 204. */
    deleteMaintenanceWindow: (id: string, opts?: CallOptions): Promise<MaintenanceWindow | null> =>
      call(
        { method: 'DELETE', path: windowPath(id), auth: true, retry: 'refused', mayBeEmpty: true },
        MaintenanceWindowSchema,
        opts,
      ),
    auditEvents: (query: AuditQuery = {}, opts?: CallOptions): Promise<AuditEventList> =>
      call({ method: 'GET', path: '/v1/audit-events', query, auth: true }, AuditEventListSchema, opts),
    /** A browser run's screenshot (DECISION: /v1/check-results/{checkId}/{resultId}/screenshot, PNG). */
    screenshot: (checkId: string, resultId: string, opts: CallOptions = {}): Promise<Uint8Array> => {
      const path = `/v1/check-results/${encodeURIComponent(checkId)}/${encodeURIComponent(resultId)}/screenshot`;
      return withRetries(() => png({ method: 'GET', path, auth: true }, opts), retry, opts.signal);
    },
    /** The public read needs no credentials (DECISION: /v1/public/dashboards/{customUrl}). */
    publicDashboard: (customUrl: string, opts?: CallOptions): Promise<PublicDashboard> =>
      call(
        { method: 'GET', path: `/v1/public/dashboards/${encodeURIComponent(customUrl)}`, auth: false },
        PublicDashboardSchema,
        opts,
      ),
    /** What builds this client again in another thread (the poll worker): a dispatcher does not cross. */
    threadOptions: (): Omit<ClientOptions, 'dispatcher'> => {
      const { dispatcher: _own, ...rest } = options;
      return rest;
    },
    close: () => (options.dispatcher ? Promise.resolve() : dispatcher.close()),
  };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const checkPath = (id: string, what: string) => `/v1/checks/${encodeURIComponent(id)}/${what}`;
const windowPath = (id: string) => `/v1/maintenance-windows/${encodeURIComponent(id)}`;

interface Answer {
  bytes: Buffer;
  etag: string | undefined;
  endpoint: string;
}

/** The audit trail's query as the client sends it (the schema's input coerces any page and limit). */
export type AuditQuery = Omit<AuditEventsQuery, 'page' | 'limit'> & { page?: number; limit?: number };

/** The windows' query as the client sends it (the schema's input coerces any page and limit). */
export type MaintenanceQuery = Omit<MaintenanceListQuery, 'page' | 'limit'> & {
  page?: number;
  limit?: number;
};

/** What the caller knows of a page from its last read. */
export interface KnownPage {
  etag?: string | undefined;
  digest?: string | undefined;
}

export type PageRead<T> =
  | { changed: false; etag: string | undefined; digest: string | undefined }
  | { changed: true; value: T; etag: string | undefined; digest: string };

/** A non-idempotent request may be sent again only when the service said it did nothing. */
async function onlyRefusalsRetryable<T>(attempt: Promise<T>): Promise<T> {
  try {
    return await attempt;
  } catch (error) {
    if (!(error instanceof ApiError) || !error.retryable || error.status === 429) throw error;
    throw new ApiError({ ...error, message: error.message, retryable: false });
  }
}

function authHeaders(options: ClientOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.apiKey !== undefined) headers['authorization'] = `Bearer ${options.apiKey}`;
  if (options.accountId !== undefined) headers['x-service-account'] = options.accountId;
  return headers;
}

export function toQueryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Never let the key reach a message: a server or a library might echo it. */
function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('***') : text;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function transportError(error: unknown, endpoint: string, secret: string | undefined): ApiError {
  const code = (error as { code?: string } | null)?.code ?? '';
  const text = error instanceof Error ? error.message : String(error);
  const timeout = TIMEOUT_CODES.has(code);
  const what = timeout ? 'timed out' : 'could not reach the service';
  return new ApiError({
    kind: timeout ? 'timeout' : 'network',
    message: redact(`${endpoint} ${what}: ${code ? `${code} ` : ''}${text}`, secret),
    endpoint,
    retryable: true,
  });
}

function httpError(
  res: Dispatcher.ResponseData,
  text: string,
  endpoint: string,
  secret: string | undefined,
): ApiError {
  const status = res.statusCode;
  const parsed = ApiErrorBodySchema.safeParse(safeJson(text));
  const serverMessage = parsed.success ? redact(parsed.data.message, secret) : undefined;
  const details = parsed.success
    ? parsed.data.details?.map((d) => ({ path: d.path, message: redact(d.message, secret) }))
    : undefined;
  return new ApiError({
    kind: 'http',
    message: `${endpoint} answered ${status}${serverMessage ? `: ${serverMessage}` : ''}`,
    endpoint,
    status,
    serverMessage,
    details,
    ...(parsed.success && { code: parsed.data.code, endedAt: parsed.data.endedAt }),
    retryable: status === 429 || status >= 500,
    retryAfterMs: parseRetryAfter(res.headers['retry-after']),
  });
}

function decode<S extends z.ZodType>(
  text: string,
  schema: S,
  endpoint: string,
  secret: string | undefined,
): z.output<S> {
  const json = safeJson(text);
  if (json === undefined) {
    throw new ApiError({
      kind: 'decode',
      message: `${endpoint} answered with a body that is not JSON`,
      endpoint,
      retryable: false,
    });
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  return failDecode(endpoint, redact(describeIssues(parsed.error, { limit: 3 }), secret));
}

function failDecode(endpoint: string, what: string): never {
  throw new ApiError({
    kind: 'decode',
    message: `${endpoint} answered with an unexpected shape: ${what}`,
    endpoint,
    retryable: false,
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

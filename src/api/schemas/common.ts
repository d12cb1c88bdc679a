// What every resource of the wire shares: the primitives, the forms a query
// parameter takes, paging, the path parameter and the list envelope. Each is
// stated here once; a resource module never restates one.
import { z } from 'zod';
import { MAX_PATH_PARAM_LENGTH } from '../../domain/path-limits.js';

// ---------------------------------------------------------------- primitives

/**
 * An enumeration the spec says is incomplete: the known values are typed (and
 * offered by editors), any other string from a server is accepted and kept.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  _known: T,
): z.ZodType<T[number] | (string & {}), string> {
  return z.string();
}

/** What a timestamp a person writes must look like, in the words of every refusal of one. */
export const TIMESTAMP_FORM = 'an ISO 8601 timestamp with a time zone, e.g. 2026-11-30T08:00:00Z';
// zod's own "Invalid ISO datetime" says neither that a time zone is needed nor what a good one is.
export const TimestampSchema = z.iso.datetime({ offset: true, error: `must be ${TIMESTAMP_FORM}` });

/** DECISION (docs/alerts.md): one of a check's links (its runbook's companions), on statuses, results and alerts. */
export const RunbookLinkSchema = z.looseObject({ name: z.string(), url: z.string() });
export type RunbookLink = z.infer<typeof RunbookLinkSchema>;

/**
 * An id as a URL path segment names it (a check, a result, a run, an alert, a
 * window, a token, a slug), and wherever a query or a body names such an id: one
 * limit (src/domain/path-limits.ts), so an id that can be named can be reached.
 */
export const PathParamSchema = z.string().min(1).max(MAX_PATH_PARAM_LENGTH);

// ---------------------------------------------------------------- query parameters (section 4)
// Each accepts the typed value (from our client) or its string form (from a URL),
// so one schema serves both sides. z.input is what a caller may pass.

export const qInt = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/, 'must be a whole number'),
    ])
    .transform(Number)
    // The range first: 20 digits broke it and also JavaScript's safe integers, and the
    // answer named both limits, the second of them nobody's business.
    .pipe(z.number().min(min).max(max))
    .pipe(z.number().int());
export const qNumber = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+(\.\d+)?$/, 'must be a number'),
    ])
    .transform(Number)
    .pipe(z.number().min(min).max(max));
// The union's own error: a union reports an option's message only when one option
// matched the input's type, so `yes` got zod's bare "Invalid input".
export const qBoolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
  error: 'must be true or false',
});
/**
 * A comma-separated list. One naming nothing (`tags=`, `tags=,`) is a 400, as an
 * empty `group=` is: as a filter it matched every check but no dashboard.
 */
export const qList = z
  .union([z.array(z.string()), z.string().transform((s) => s.split(','))])
  .transform((items) => items.map((t) => t.trim()).filter((t) => t.length > 0))
  .refine((items) => items.length > 0, 'must name at least one value, e.g. prod,web');
export const qDate = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'must be an ISO 8601 date or timestamp',
});
/**
 * A `…Min` above its `…Max` matches nothing, which reads as "no such checks":
 * refused instead, as `from` after `to` is. For `.refine(…)`, on the `…Min`.
 */
export const rangeInOrder = <K extends string>(
  min: K,
  max: K,
): [(q: Partial<Record<K, number>>) => boolean, { message: string; path: string[] }] => [
  (q) => q[min] === undefined || q[max] === undefined || q[min] <= q[max],
  { message: `must not be above ${max}`, path: [min] },
];
/** The last instant a `to` covers: a date-only value means the end of that day. */
export function endOf(value: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(value) + 86_400_000 - 1 : Date.parse(value);
}
/**
 * A `from` after its `to` matches nothing, which reads as "nothing then": refused. For
 * `.refine(…)`. The `to` as the lists apply it: `from=…T12:00Z&to=<that day>` is half a day.
 */
export const fromNotAfterTo: [
  (q: { from?: string; to?: string }) => boolean,
  { message: string; path: string[] },
] = [
  (q) => !q.from || !q.to || Date.parse(q.from) <= endOf(q.to),
  { message: 'from must not be after to', path: ['from'] },
];
/** The longest response time a query may name. */
export const MAX_MS = 86_400_000;

// ---------------------------------------------------------------- paging

/** The spec's page size, default and most (section 8). */
export const DEFAULT_PAGE_LIMIT = 10;
export const MAX_PAGE_LIMIT = 100;
/** No list here has a millionth page; the cap keeps an offset an ordinary integer. */
const MAX_PAGE = 1_000_000;

/**
 * `page` and `limit` of every list: integers as the spec types them, so `1e1`,
 * `0x10` or an empty value is a 400, never a page nobody asked for. The lists of
 * our own that began at 20 a page (maintenance windows, audit events; docs/roles.md)
 * keep that default.
 */
export const pageQuery = (defaultLimit = DEFAULT_PAGE_LIMIT) => ({
  page: qInt(1, MAX_PAGE).default(1),
  limit: qInt(1, MAX_PAGE_LIMIT).default(defaultLimit),
});

/**
 * DECISION: every list page (statuses, results, dashboards, alert channels) is
 * sent with an ETag, and If-None-Match naming it is answered 304 with no body
 * (README, "Conditional reads"); the results list's ETag leaves out
 * meta.timeframe, which a rolling period moves every millisecond.
 */
export const PageMetaSchema = z.looseObject({
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalItems: z.number().int(),
  limit: z.number().int(),
});
export type PageMeta = z.infer<typeof PageMetaSchema>;

/** Every list answer: its items under `data`, its meta (PageMetaSchema, or one extending it) under `meta`. */
export const listOf = <T extends z.ZodType, M extends z.ZodType>(item: T, meta: M) =>
  z.looseObject({ data: z.array(item), meta });

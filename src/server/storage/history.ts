// Roll-ups of results (docs/status-page.md): per account x check x location, an hour's and a
// UTC day's runs, failures, timed runs, response-time sum, and a histogram of
// response times that a p95 is estimated from. They are written with the results
// themselves (the same SQLite transaction, the same PostgreSQL statement), so they
// cost no transaction of their own, and outlive the raw results (historyDays).
//
// Why a histogram, and why in columns: a p95 does not add up, a histogram does.
// Buckets of an hour merge into a day, days into 90 days, locations into a check,
// by adding counts: in an upsert (`h3 = h3 + excluded.h3`) and in a read
// (`sum(h3)`), the same SQL in SQLite and PostgreSQL, with no JSON to take apart.
// The bins are log-scale (edges about 2^(k/2) ms, so each is at most 1.5 times
// as wide as its start); the estimate is the geometric middle of the bin that
// holds the nearest-rank p95, so it is within HISTOGRAM_ERROR of the exact
// nearest-rank p95 for response times of 2 ms to 65,536 ms.

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Hourly roll-ups are kept this long (a 7-day view at hour granularity, with a day to spare). */
export const HOURLY_KEPT_MS = 8 * DAY_MS;

/** Bin i holds response times in [EDGES[i-1], EDGES[i]); bin 0 those under 2 ms, the last those from 65,536 ms. */
export const EDGES: readonly number[] = [
  2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512, 724, 1024, 1448, 2048, 2896, 4096, 5793,
  8192, 11585, 16384, 23170, 32768, 46341, 65536,
];
export const BINS = EDGES.length + 1;
/** The histogram's columns, h0 to h31. */
export const BIN_COLUMNS: readonly string[] = Array.from({ length: BINS }, (_, i) => `h${i}`);
/** The relative error of the p95 estimate against the exact nearest rank (sqrt(1.5) - 1). */
export const HISTOGRAM_ERROR = 0.225;

/** The bin of a response time: how many edges it reaches (PostgreSQL's width_bucket over EDGES). */
export function binOf(responseTime: number): number {
  let i = 0;
  while (i < EDGES.length && responseTime >= EDGES[i]!) i++;
  return i;
}

/** The nearest-rank p95 of a histogram, estimated as the geometric middle of its bin; null when empty. */
export function p95OfBins(bins: readonly number[]): number | null {
  const timed = bins.reduce((n, c) => n + c, 0);
  if (timed === 0) return null;
  const rank = Math.max(1, Math.ceil(0.95 * timed));
  let seen = 0;
  for (let i = 0; i < bins.length; i++) {
    seen += bins[i]!;
    if (seen >= rank) return estimateOf(i);
  }
  return estimateOf(bins.length - 1);
}

function estimateOf(bin: number): number {
  if (bin === 0) return 1;
  if (bin >= EDGES.length) return EDGES[EDGES.length - 1]!;
  return Math.round(Math.sqrt(EDGES[bin - 1]! * EDGES[bin]!));
}

export type Granularity = 'hour' | 'day';
export const SPAN_MS: Record<Granularity, number> = { hour: HOUR_MS, day: DAY_MS };
/** The start of the hour or UTC day that holds `at`. */
export const bucketOf = (at: number, granularity: Granularity) => at - (at % SPAN_MS[granularity]);

/** A roll-up bucket as read: one location's, or (locationId null) the check's at every location. */
export interface HistoryBucket {
  start: number;
  locationId: string | null;
  runs: number;
  failures: number;
  /** Runs with a response time: what the sum and the p95 are over. */
  timed: number;
  responseTimeSum: number;
  p95ResponseTime: number | null;
}

export interface HistoryQuery {
  /** Buckets starting in [from, to], epoch ms. */
  from: number;
  to: number;
  granularity: Granularity;
  /** One location's buckets; absent, the check's buckets summed over its locations. */
  locationId?: string | undefined;
}

/** What a prune keeps beyond the raw results: roll-ups and incidents, by their own cut-offs. */
export interface HistoryCutoffs {
  /** Daily roll-ups and closed incidents older than this go (historyDays). */
  before: number;
  /** Hourly roll-ups older than this go (HOURLY_KEPT_MS, or historyDays when shorter). */
  hourlyBefore: number;
}

/** The SQL of a bucket's columns as read: counts summed, the bins summed into `h0`… */
export const SUMMED = `sum(runs) AS runs, sum(failures) AS failures, sum(timed) AS timed,
  sum(response_time_sum) AS "responseTimeSum", ${BIN_COLUMNS.map((h) => `sum(${h}) AS ${h}`).join(', ')}`;

/** A row summed by SUMMED as a bucket (counts as numbers, whatever the driver gave). */
export function bucketOfRow(row: Record<string, unknown>, locationId: string | null): HistoryBucket {
  const bins = BIN_COLUMNS.map((h) => Number(row[h] ?? 0));
  return {
    start: Number(row['start']),
    locationId,
    runs: Number(row['runs'] ?? 0),
    failures: Number(row['failures'] ?? 0),
    timed: Number(row['timed'] ?? 0),
    responseTimeSum: Number(row['responseTimeSum'] ?? 0),
    p95ResponseTime: p95OfBins(bins),
  };
}

/** The columns of a roll-up table, after its key; `big` is PostgreSQL's BIGINT for the sum. */
export const rollupTable = (name: string, time: string, big: string) => `CREATE TABLE ${name} (
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     location_id TEXT NOT NULL,
     bucket_start ${time} NOT NULL,   -- epoch ms: the hour's or the UTC day's start
     runs INTEGER NOT NULL,
     failures INTEGER NOT NULL,
     timed INTEGER NOT NULL,          -- runs with a response time
     response_time_sum ${big} NOT NULL,
     ${BIN_COLUMNS.map((h) => `${h} INTEGER NOT NULL DEFAULT 0`).join(',\n     ')},
     PRIMARY KEY (account_id, check_id, location_id, bucket_start)
   );
   CREATE INDEX ${name}_time ON ${name} (bucket_start);`;

/** The tables of each granularity. */
export const ROLLUP_TABLE: Record<Granularity, string> = { hour: 'history_hourly', day: 'history_daily' };

/** The SET of an upsert into `table` that adds `excluded`'s counts to the row's. */
export const addCounts = (table: string) =>
  ['runs', 'failures', 'timed', 'response_time_sum', ...BIN_COLUMNS]
    .map((c) => `${c} = ${table}.${c} + excluded.${c}`)
    .join(', ');

/** The SQL that counts a row (of `response_time`) into bin i: the same in SQLite and PostgreSQL. */
const inBin = (i: number) => {
  const low = i === 0 ? '' : `response_time >= ${EDGES[i - 1]!}`;
  const high = i === EDGES.length ? '' : `response_time < ${EDGES[i]!}`;
  const test = [low, high].filter(Boolean).join(' AND ');
  return `sum(CASE WHEN ${test} THEN 1 ELSE 0 END)`;
};

/**
 * An upsert adding the rows of `source` (account_id, check_id, location_id, ok,
 * started_at, response_time: results' columns) into the granularity's roll-ups,
 * grouped first so that a bucket is one row of the statement, and in key order so
 * that two instances' statements lock the rows they share in the same order.
 */
export function rollupSql(granularity: Granularity, source: string, where = 'true'): string {
  const table = ROLLUP_TABLE[granularity];
  const bucket = `started_at - started_at % ${SPAN_MS[granularity]}`;
  return `INSERT INTO ${table} (account_id, check_id, location_id, bucket_start, runs, failures, timed,
      response_time_sum, ${BIN_COLUMNS.join(', ')})
    SELECT account_id, check_id, location_id, ${bucket}, count(*), sum(CASE WHEN ok THEN 0 ELSE 1 END),
      count(response_time), coalesce(sum(response_time), 0), ${BIN_COLUMNS.map((_, i) => inBin(i)).join(', ')}
    FROM ${source} WHERE ${where}
    GROUP BY account_id, check_id, location_id, ${bucket}
    ORDER BY account_id, check_id, location_id, ${bucket}
    ON CONFLICT (account_id, check_id, location_id, bucket_start) DO UPDATE SET ${addCounts(table)}`;
}

/**
 * The read of roll-ups: per bucket start (or, `whole`, all of [from, to] in one
 * row), summed over the check's locations or of one. `$` names parameter n in
 * the storage's dialect; the parameters are account, check, from, to[, location].
 */
export function historySql(
  granularity: Granularity,
  q: { locationId?: string | undefined; whole?: boolean },
  $: (n: number) => string,
): string {
  const location = q.locationId === undefined ? '' : ` AND location_id = ${$(5)}`;
  const start = q.whole ? `CAST(${$(3)} AS BIGINT) AS start` : 'bucket_start AS start';
  const group = q.whole ? '' : ' GROUP BY bucket_start ORDER BY bucket_start';
  return `SELECT ${start}, ${SUMMED} FROM ${ROLLUP_TABLE[granularity]}
    WHERE account_id = ${$(1)} AND check_id = ${$(2)} AND bucket_start >= ${$(3)} AND bucket_start <= ${$(4)}${location}${group}`;
}

export const historyParams = (accountId: string, checkId: string, q: HistoryQuery): unknown[] => [
  accountId,
  checkId,
  q.from,
  q.to,
  ...(q.locationId === undefined ? [] : [q.locationId]),
];

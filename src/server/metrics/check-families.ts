// The per-check families of /metrics (docs/metrics.md), written by prom-client's
// registry from the rows gathered on the service's thread (check-rows.ts), on the
// thread of their own (metrics-thread.ts) or, running from source, in process.
//
// 10,000 checks make some 110,000 series, 17.8 MB of text. Set through a Gauge's
// labels, each series is hashed and its labels escaped anew at every scrape; here each
// check's label sets are objects made once per check (while its labels stay), passed as
// prom-client's `sharedLabels`, which the registry formats once per object and keeps
// (registry.js flattenSharedLabels), and the families' values are handed to the registry
// as a list (snapshotFamily). A family whose every series is as it was keeps its text
// and its compressed piece; only the others are written and compressed again.
import { Counter, Gauge, Registry, type MetricType } from 'prom-client';
import { CHECK_STATUSES, type CheckStatusValue } from '../../api/schemas.js';
import {
  LABELS_PER_CHECK,
  RUNNER_CONNECTED_MS,
  VALUE,
  VALUES_PER_CHECK,
  type CheckRows,
} from './check-rows.js';
import { deflatePiece, joinPieces, type DeflatedPieces } from './gzip-stream.js';

type Labels = Record<string, string>;

interface Series {
  labels: Labels;
  sharedLabels: Labels;
  value: number;
}

const NO_LABELS: Labels = Object.freeze({}) as Labels;

/**
 * A family whose series are a list made at each snapshot, not set one by one: a
 * prom-client metric (its name and help checked by it) whose `get` answers the list.
 */
function snapshotFamily<M extends Gauge | Counter>(
  Kind: new (config: { name: string; help: string; registers: Registry[] }) => M,
  config: { name: string; help: string; registers: Registry[] },
) {
  const metric = new Kind(config);
  const series: Series[] = [];
  // prom-client's typings declare MetricType a numeric enum it does not export; the registry writes the string.
  const type = (metric instanceof Counter ? 'counter' : 'gauge') as unknown as MetricType;
  const { name, help } = config;
  metric.get = () =>
    Promise.resolve({ name, help, type, aggregator: 'sum', collect: () => undefined, values: series });
  return series;
}

/** A check's label sets: one object per series it has, made once while its labels stay. */
interface CheckLabels {
  base: Labels;
  status: Record<CheckStatusValue, Labels>;
  window: Labels;
  avg: Labels;
  p95: Labels;
  success: Labels;
  failed: Labels;
}

function checkLabels(l: readonly string[], at: number): CheckLabels {
  const base: Labels = {
    account: l[at]!,
    check_id: l[at + 1]!,
    check_name: l[at + 2]!,
    check_type: l[at + 3]!,
    group: l[at + 4]!,
  };
  const status = Object.fromEntries(
    CHECK_STATUSES.map((s): [CheckStatusValue, Labels] => [s, { ...base, status: s }]),
  ) as Record<CheckStatusValue, Labels>;
  return {
    base,
    status,
    window: { ...base, window: '24h' },
    avg: { ...base, stat: 'avg' },
    p95: { ...base, stat: 'p95' },
    success: { ...base, result: 'success' },
    failed: { ...base, result: 'failed' },
  };
}

/**
 * A scope's per-check families compressed, one piece per family, for a scrape to end
 * in one gzip stream (gzip-stream.ts). Only the compressed text leaves the thread that
 * writes it: 0.5 MB at 10,000 checks, where the text is 17.8 MB (held by the service's
 * thread, buffers that size made its garbage collector stall it).
 */
export type RenderedChecks = DeflatedPieces;

export interface ChecksRenderer {
  /** The families of these rows; what stayed as in the rows before is reused. */
  render(rows: CheckRows): Promise<RenderedChecks>;
}

interface RenderedFamily {
  series: readonly Series[];
  text: Buffer;
  deflate: Promise<Buffer>;
}

/** One scope's writer: it keeps the label sets and the families of its last rows. */
export function createChecksRenderer(): ChecksRenderer {
  let labelSets = new Map<string, CheckLabels>();
  let previous = new Map<string, RenderedFamily>();
  return {
    async render(rows) {
      const registry = new Registry();
      const made: Array<{ name: string; series: Series[] }> = [];
      const family = <M extends Gauge | Counter>(
        Kind: new (config: { name: string; help: string; registers: Registry[] }) => M,
        name: string,
        help: string,
      ) => {
        const series = snapshotFamily(Kind, { name, help, registers: [registry] });
        made.push({ name, series });
        return series;
      };
      const gauge = (name: string, help: string) => family(Gauge, name, help);
      const up = gauge('checkwall_check_up', 'Whether the check is passing (1) or not (0).');
      const status = gauge(
        'checkwall_check_status',
        'The check status: one series per status value, 1 for the current one.',
      );
      const availability = gauge(
        'checkwall_check_availability_ratio',
        'Runs that succeeded over the window, 0 to 1; absent while the window holds no run.',
      );
      const response = gauge(
        'checkwall_check_response_time_seconds',
        'Response time over 24 h: the average (stat="avg") and 95th percentile (stat="p95").',
      );
      const runs = family(
        Counter,
        'checkwall_check_runs_total',
        'Runs of the check stored by this instance since it started, by result.',
      );
      const certificate = gauge(
        'checkwall_check_certificate_expiry_timestamp_seconds',
        'When the TLS certificate the check last saw expires (Unix time); absent when none was seen.',
      );
      const maintenance = gauge(
        'checkwall_check_in_maintenance',
        'Whether a maintenance window is active over the check (1) or not (0).',
      );
      const runners = gauge(
        'checkwall_location_runners',
        `Runners of a remote location in touch within the last ${RUNNER_CONNECTED_MS / 1000} s.`,
      );
      const runnerSeen = gauge(
        'checkwall_location_runner_last_seen_timestamp_seconds',
        "Newest contact of any of a remote location's runners (Unix time); absent when none ever called.",
      );
      const add = (to: Series[], labels: Labels, value: number) =>
        to.push({ labels: NO_LABELS, sharedLabels: labels, value });
      const kept = new Map<string, CheckLabels>();
      const { labels, values } = rows;
      for (let c = 0; c * LABELS_PER_CHECK < labels.length; c++) {
        const at = c * LABELS_PER_CHECK;
        const key = labels.slice(at, at + LABELS_PER_CHECK).join('\u0000');
        const l = labelSets.get(key) ?? checkLabels(labels, at);
        kept.set(key, l);
        const v = c * VALUES_PER_CHECK;
        const current = CHECK_STATUSES[values[v + VALUE.status]!]!;
        add(up, l.base, current === 'passing' ? 1 : 0);
        for (const s of CHECK_STATUSES) add(status, l.status[s], s === current ? 1 : 0);
        const optional = (to: Series[], set: Labels, value: number) => {
          if (!Number.isNaN(value)) add(to, set, value);
        };
        optional(availability, l.window, values[v + VALUE.availability]!);
        optional(response, l.avg, values[v + VALUE.avg]!);
        optional(response, l.p95, values[v + VALUE.p95]!);
        add(runs, l.success, values[v + VALUE.succeeded]!);
        add(runs, l.failed, values[v + VALUE.failed]!);
        optional(certificate, l.base, values[v + VALUE.certificateExpiry]!);
        add(maintenance, l.base, values[v + VALUE.maintenance]!);
      }
      // The label sets of checks gone (or renamed) are let go.
      labelSets = kept;
      for (const location of rows.locations) {
        const set = { account: location.account, location: location.location };
        add(runners, set, location.runners);
        if (location.seen !== null) add(runnerSeen, set, location.seen);
      }
      const families = new Map<string, RenderedFamily>();
      for (const [i, { name, series }] of made.entries()) {
        const before = previous.get(name);
        if (before && sameSeries(before.series, series)) {
          families.set(name, { ...before, series });
          continue;
        }
        // As registry.metrics() joins its families: a blank line between, a newline at the end.
        const end = i === made.length - 1 ? '\n' : '\n\n';
        const text = Buffer.from((await registry.getSingleMetricAsString(name)) + end);
        families.set(name, { series, text, deflate: deflatePiece(text) });
      }
      const all = [...families.values()];
      const pieces = await Promise.all(all.map(async (f) => ({ text: f.text, deflate: await f.deflate })));
      // Kept for the next rows once every piece is made (a failed one is made again then).
      previous = families;
      return joinPieces(pieces);
    },
  };
}

/** The same series: each the same label set (the object kept per check) and value. */
function sameSeries(a: readonly Series[], b: readonly Series[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (a[i]!.sharedLabels !== b[i]!.sharedLabels || a[i]!.value !== b[i]!.value) return false;
  return true;
}

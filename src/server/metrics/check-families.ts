// The per-check families of /metrics (docs/metrics.md), written by prom-client's
// registry from the rows gathered on the service's thread (check-rows.ts), on the
// thread of their own (metrics-thread.ts) or, running from source, in process.
//
// Each check makes several series (sizes: BENCHMARKS.md, bench:service metrics). Set through a Gauge's
// labels, each series is hashed and its labels escaped anew at every scrape; here each
// check's label sets are objects made once per check (while its labels stay), passed as
// prom-client's `sharedLabels`, which the registry formats once per object and keeps
// (registry.js flattenSharedLabels), and the families' values are handed to the registry
// as a list (snapshotFamily). A family whose every series is as it was keeps its text
// and its compressed piece; only the others are written and compressed again.
import { Counter, Gauge, Registry } from 'prom-client';
import { CHECK_STATUSES, type CheckStatusValue } from '../../api/schemas/index.js';
import { RUNNER_CONNECTED_MS } from '../schedule/runner-contact.js';
import { LABELS_PER_CHECK, VALUE, VALUES_PER_CHECK, type CheckRows } from './check-rows.js';
import { deflatePiece, joinPieces, type DeflatedPieces } from './gzip-stream.js';
import { NO_LABELS, sameSeries, snapshotFamily, type Labels, type Series } from './series.js';

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
 * writes it, a small part of the text's size (held by the service's thread, buffers the
 * text's size made its garbage collector stall it; BENCHMARKS.md, bench:service metrics).
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

/** The families, in the order they are written: the key each is filled by, its name, help and kind. */
const FAMILIES = [
  ['up', 'checkwall_check_up', 'Whether the check is passing (1) or not (0).'],
  [
    'status',
    'checkwall_check_status',
    'The check status: one series per status value, 1 for the current one.',
  ],
  [
    'availability',
    'checkwall_check_availability_ratio',
    'Runs that succeeded over the window, 0 to 1; absent while the window holds no run.',
  ],
  [
    'response',
    'checkwall_check_response_time_seconds',
    'Response time over 24 h: the average (stat="avg") and 95th percentile (stat="p95").',
  ],
  [
    'runs',
    'checkwall_check_runs_total',
    'Runs of the check stored by this instance since it started, by result.',
    Counter,
  ],
  [
    'certificate',
    'checkwall_check_certificate_expiry_timestamp_seconds',
    'When the TLS certificate the check last saw expires (Unix time); absent when none was seen.',
  ],
  [
    'maintenance',
    'checkwall_check_in_maintenance',
    'Whether a maintenance window is active over the check (1) or not (0).',
  ],
  [
    'runners',
    'checkwall_location_runners',
    `Runners of a remote location in touch within the last ${RUNNER_CONNECTED_MS / 1000} s.`,
  ],
  [
    'runnerSeen',
    'checkwall_location_runner_last_seen_timestamp_seconds',
    "Newest contact of any of a remote location's runners (Unix time); absent when none ever called.",
  ],
] as const;

type FamilyKey = (typeof FAMILIES)[number][0];
type Families = Record<FamilyKey, Series[]>;

/** Each family registered with a registry of its own, its series to be filled. */
function newFamilies(registry: Registry): Families {
  return Object.fromEntries(
    FAMILIES.map(([key, name, help, Kind = Gauge]) => [
      key,
      snapshotFamily<Gauge | Counter>(Kind, { name, help, registers: [registry] }),
    ]),
  ) as Families;
}

const add = (to: Series[], labels: Labels, value: number) =>
  to.push({ labels: NO_LABELS, sharedLabels: labels, value });
const optional = (to: Series[], labels: Labels, value: number) => {
  if (!Number.isNaN(value)) add(to, labels, value);
};

/** A check's series, from its row of values (check-rows.ts's VALUE offsets, from `v`). */
function addCheck(f: Families, l: CheckLabels, values: Float64Array, v: number) {
  const current = CHECK_STATUSES[values[v + VALUE.status]!]!;
  add(f.up, l.base, current === 'passing' ? 1 : 0);
  for (const s of CHECK_STATUSES) add(f.status, l.status[s], s === current ? 1 : 0);
  optional(f.availability, l.window, values[v + VALUE.availability]!);
  optional(f.response, l.avg, values[v + VALUE.avg]!);
  optional(f.response, l.p95, values[v + VALUE.p95]!);
  add(f.runs, l.success, values[v + VALUE.succeeded]!);
  add(f.runs, l.failed, values[v + VALUE.failed]!);
  optional(f.certificate, l.base, values[v + VALUE.certificateExpiry]!);
  add(f.maintenance, l.base, values[v + VALUE.maintenance]!);
}

/** One scope's writer: it keeps the label sets and the families of its last rows. */
export function createChecksRenderer(): ChecksRenderer {
  let labelSets = new Map<string, CheckLabels>();
  let previous = new Map<string, RenderedFamily>();
  return {
    async render(rows) {
      const registry = new Registry();
      const f = newFamilies(registry);
      const kept = new Map<string, CheckLabels>();
      const { labels, values } = rows;
      for (let c = 0; c * LABELS_PER_CHECK < labels.length; c++) {
        const at = c * LABELS_PER_CHECK;
        const key = labels.slice(at, at + LABELS_PER_CHECK).join('\u0000');
        const l = labelSets.get(key) ?? checkLabels(labels, at);
        kept.set(key, l);
        addCheck(f, l, values, c * VALUES_PER_CHECK);
      }
      // The label sets of checks gone (or renamed) are let go.
      labelSets = kept;
      for (const location of rows.locations) {
        const set = { account: location.account, location: location.location };
        add(f.runners, set, location.runners);
        if (location.seen !== null) add(f.runnerSeen, set, location.seen);
      }
      const families = await writeFamilies(registry, f, previous);
      const all = [...families.values()];
      const pieces = await Promise.all(all.map(async (w) => ({ text: w.text, deflate: await w.deflate })));
      // Kept for the next rows once every piece is made (a failed one is made again then).
      previous = families;
      return joinPieces(pieces);
    },
  };
}

/** Each family's text and piece: kept from `previous` when its series are the same, else written. */
async function writeFamilies(
  registry: Registry,
  f: Families,
  previous: ReadonlyMap<string, RenderedFamily>,
): Promise<Map<string, RenderedFamily>> {
  const families = new Map<string, RenderedFamily>();
  for (const [i, [key, name]] of FAMILIES.entries()) {
    const series = f[key];
    const before = previous.get(name);
    if (before && sameSeries(before.series, series)) {
      families.set(name, { ...before, series });
      continue;
    }
    // As registry.metrics() joins its families: a blank line between, a newline at the end.
    const end = i === FAMILIES.length - 1 ? '\n' : '\n\n';
    const text = Buffer.from((await registry.getSingleMetricAsString(name)) + end);
    families.set(name, { series, text, deflate: deflatePiece(text) });
  }
  return families;
}

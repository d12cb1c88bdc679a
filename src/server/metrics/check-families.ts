// The per-check families of /metrics (docs/metrics.md): read from the statuses the
// list serves (the status engine's snapshot, presented), so every instance answers the
// same, except checkwall_check_runs_total, this instance's count (run-tally.ts); and
// each remote location's runners. Written by prom-client's registry.
//
// 10,000 checks make some 110,000 series. Set through a Gauge's labels, each series is
// hashed and its labels escaped anew at every scrape; here each check's label sets are
// objects made once per check config, passed as prom-client's `sharedLabels`, which the
// registry formats once per object and keeps (registry.js flattenSharedLabels), and the
// families' values are handed to the registry as a list (snapshotFamily).
import { Counter, Gauge, Registry, type MetricType } from 'prom-client';
import type { CheckStatus, CheckStatusValue } from '../../api/schemas.js';
import { CHECK_STATUSES } from '../../api/schemas.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { RunTally } from './run-tally.js';

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

/** A check's label sets: one object per series it has, made once per check config. */
interface CheckLabels {
  base: Labels;
  status: Record<CheckStatusValue, Labels>;
  window: Labels;
  avg: Labels;
  p95: Labels;
  success: Labels;
  failed: Labels;
}

const labelsOfCheck = new WeakMap<CheckConfig, CheckLabels>();

function checkLabels(account: AccountConfig, check: CheckConfig): CheckLabels {
  let labels = labelsOfCheck.get(check);
  if (labels) return labels;
  const base: Labels = {
    account: account.id,
    check_id: check.id,
    check_name: check.name,
    check_type: check.type,
    group: check.group ?? '',
  };
  const status = Object.fromEntries(
    CHECK_STATUSES.map((s): [CheckStatusValue, Labels] => [s, { ...base, status: s }]),
  ) as Record<CheckStatusValue, Labels>;
  labels = {
    base,
    status,
    window: { ...base, window: '24h' },
    avg: { ...base, stat: 'avg' },
    p95: { ...base, stat: 'p95' },
    success: { ...base, result: 'success' },
    failed: { ...base, result: 'failed' },
  };
  labelsOfCheck.set(check, labels);
  return labels;
}

export interface CheckFamiliesDeps {
  /** The account's statuses in config order, as GET /v1/check-statuses serves them. */
  statuses(account: AccountConfig): Promise<readonly CheckStatus[]>;
  runs: RunTally;
  runners: {
    lastSeen(accountId: string, locationId: string): number | null;
    runnersSince(accountId: string, locationId: string, since: number): number;
  };
  now(): number;
}

/** A remote location's runner counts as connected when in touch this lately (as run now's wait). */
export const RUNNER_CONNECTED_MS = 60_000;

/** The families of these accounts' checks and remote locations, in the text format. */
export async function renderChecks(
  accounts: readonly AccountConfig[],
  deps: CheckFamiliesDeps,
  previous?: RenderedChecks,
): Promise<RenderedChecks> {
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
  const now = deps.now();
  for (const account of accounts) {
    const statuses = await deps.statuses(account);
    account.checks.forEach((check, i) => {
      const s = statuses[i];
      if (!s || s.checkId !== check.id) return;
      const l = checkLabels(account, check);
      const add = (to: Series[], labels: Labels, value: number) =>
        to.push({ labels: NO_LABELS, sharedLabels: labels, value });
      add(up, l.base, s.status === 'passing' ? 1 : 0);
      for (const value of CHECK_STATUSES) add(status, l.status[value], s.status === value ? 1 : 0);
      if (s.availability.percentage !== null)
        add(availability, l.window, fraction(s.availability.percentage));
      const { averageResponseTime: avg, p95ResponseTime: p95 } = s.performance;
      if (avg !== null) add(response, l.avg, seconds(avg));
      if (p95 !== null) add(response, l.p95, seconds(p95));
      const [succeeded, failed] = deps.runs.of(account.id, check.id);
      add(runs, l.success, succeeded);
      add(runs, l.failed, failed);
      if (s.certificate) add(certificate, l.base, Date.parse(s.certificate.validTo) / 1000);
      add(maintenance, l.base, s.maintenance ? 1 : 0);
    });
    for (const location of account.locations) {
      if (!location.remote) continue;
      const labels = { account: account.id, location: location.id };
      const count = deps.runners.runnersSince(account.id, location.id, now - RUNNER_CONNECTED_MS);
      runners.push({ labels: NO_LABELS, sharedLabels: labels, value: count });
      const seen = deps.runners.lastSeen(account.id, location.id);
      if (seen !== null) runnerSeen.push({ labels: NO_LABELS, sharedLabels: labels, value: seen / 1000 });
    }
  }
  // A family whose every series is as it was (most checks' status, maintenance and
  // certificate move seldom) keeps its text; the others are written again.
  const families = new Map<string, RenderedFamily>();
  for (const { name, series } of made) {
    const before = previous?.families.get(name);
    const text =
      before && sameSeries(before.series, series)
        ? before.text
        : await registry.getSingleMetricAsString(name);
    families.set(name, { series, text });
  }
  // As registry.metrics() joins its families.
  return { text: `${[...families.values()].map((f) => f.text).join('\n\n')}\n`, families };
}

interface RenderedFamily {
  series: readonly Series[];
  text: string;
}

/** A scope's per-check text, with each family's series and text for the next build to reuse. */
export interface RenderedChecks {
  text: string;
  families: ReadonlyMap<string, RenderedFamily>;
}

// Rounded to a millionth: a percentage over 100 or milliseconds over 1000 is otherwise often
// a binary fraction's 17 digits, longer to write and never the same twice for a family to keep.
const fraction = (percentage: number) => Math.round(percentage * 10_000) / 1_000_000;
const seconds = (ms: number) => Math.round(ms * 1000) / 1_000_000;

/** The same series: each the same label set (the object made once per check config) and value. */
function sameSeries(a: readonly Series[], b: readonly Series[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (a[i]!.sharedLabels !== b[i]!.sharedLabels || a[i]!.value !== b[i]!.value) return false;
  return true;
}

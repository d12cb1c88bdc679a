/**
 * The metric catalogue of spec 2.5. Where the spec names a metric without its
 * full record ("not shown"), we fill it consistently (docs/decisions.md#shapes repeats this):
 *   - response-time metrics: milliseconds, number, precision 2, range 0..max;
 *     median uses calculationMethod `percentile_50`, p99 `percentile_99`,
 *     min/max `minimum`/`maximum` (the spec's list of methods is open).
 *   - success/error rate: percentage, number, precision 2, range 0..100;
 *     totals: count, integer, precision 0, `sum`.
 *   - firstInputDelay: milliseconds, number, precision 0; timeToInteractive:
 *     seconds, number, precision 3, good 3.8 s / needs improvement 7.3 s
 *     (Lighthouse's bands, as the spec gives none).
 *   - heartbeat: averageHeartbeatInterval and longestGap in seconds (precision 1),
 *     heartbeatConsistency a percentage (share of pings on time, precision 2).
 *   - certificateDaysRemaining (docs/certificates.md): group certificateMetrics,
 *     unit days, integer, the newest run's days until its chain's first expiry
 *     (calculationMethod `latest`); good above 30, needs improvement 14 to 30, poor below 14.
 *   - thresholds for lower-is-better metrics are "at most"; for success rate and
 *     uptime (higher is better) goodThreshold 99.9 and needsImprovementThreshold 99.0,
 *     the spec's guide bands.
 */
import type { MetricCatalogue, MetricDefinition } from '../../api/schemas/index.js';
import { CHECK_TYPES, METRIC_CATEGORIES } from '../../api/schemas/index.js';
import { PCT_RANGE, type Def } from './catalogue-def.js';
import { HEARTBEAT_DEFS } from './catalogue-heartbeat.js';

const ALL = [...CHECK_TYPES];
const BROWSER = ['browser', 'multistep'];
const MS_RANGE = { min: 0, max: 300_000 };

const rt = (
  name: string,
  displayName: string,
  method: string,
  description: string,
  example: number,
): Def => ({
  group: 'responseTimeMetrics',
  name,
  displayName,
  description,
  unit: 'milliseconds',
  dataType: 'number',
  availableFor: ALL,
  calculationMethod: method,
  precision: 2,
  range: MS_RANGE,
  category: 'response_time',
  calculation: `${method.replace(/_/g, ' ')} of the response times of the runs in the period`,
  examples: [{ value: example, useCase: 'a healthy API endpoint' }],
});

const count = (name: string, displayName: string, description: string): Def => ({
  group: 'volumeMetrics',
  name,
  displayName,
  description,
  unit: 'count',
  dataType: 'integer',
  availableFor: ALL,
  calculationMethod: 'sum',
  precision: 0,
  range: { min: 0, max: Number.MAX_SAFE_INTEGER },
  category: 'volume',
  calculation: 'number of runs in the period',
  examples: [{ value: 1440, useCase: 'a check every minute for a day' }],
});

const DEFS: Def[] = [
  rt(
    'averageResponseTime',
    'Average response time',
    'arithmetic_mean',
    'Mean response time of all runs.',
    180,
  ),
  rt(
    'medianResponseTime',
    'Median response time',
    'percentile_50',
    'The 50th percentile of response times.',
    150,
  ),
  rt(
    'p95ResponseTime',
    '95th percentile response time',
    'percentile_95',
    '95 % of runs were at least this fast.',
    420,
  ),
  rt(
    'p99ResponseTime',
    '99th percentile response time',
    'percentile_99',
    '99 % of runs were at least this fast.',
    800,
  ),
  rt('minResponseTime', 'Minimum response time', 'minimum', 'The fastest run.', 90),
  rt('maxResponseTime', 'Maximum response time', 'maximum', 'The slowest run.', 1200),
  {
    group: 'successMetrics',
    name: 'successRate',
    displayName: 'Success rate',
    unit: 'percentage',
    dataType: 'number',
    description: 'Share of runs that succeeded.',
    availableFor: ALL,
    calculationMethod: 'percentage',
    precision: 2,
    range: PCT_RANGE,
    category: 'success_rate',
    goodThreshold: 99.9,
    needsImprovementThreshold: 99.0,
    calculation: 'successful runs / all runs x 100',
    examples: [{ value: 99.95, useCase: 'a stable service' }],
  },
  {
    group: 'successMetrics',
    name: 'errorRate',
    displayName: 'Error rate',
    unit: 'percentage',
    dataType: 'number',
    description: 'Share of runs that failed.',
    availableFor: ALL,
    calculationMethod: 'percentage',
    precision: 2,
    range: PCT_RANGE,
    category: 'success_rate',
    goodThreshold: 0.1,
    needsImprovementThreshold: 1.0,
    calculation: 'failed runs / all runs x 100',
    examples: [{ value: 0.05, useCase: 'a stable service' }],
  },
  count('totalRequests', 'Total requests', 'All runs in the period.'),
  count('successfulRequests', 'Successful requests', 'Runs that succeeded.'),
  count('failedRequests', 'Failed requests', 'Runs that failed.'),
  browser(
    'firstContentfulPaint',
    'First Contentful Paint',
    'seconds',
    3,
    1.8,
    3.0,
    'Time until the first text or image is painted.',
  ),
  browser(
    'largestContentfulPaint',
    'Largest Contentful Paint',
    'seconds',
    3,
    2.5,
    4.0,
    'Time until the largest content element is painted.',
  ),
  browser(
    'cumulativeLayoutShift',
    'Cumulative Layout Shift',
    'score',
    4,
    0.1,
    0.25,
    'How much the layout moves while loading.',
  ),
  browser(
    'firstInputDelay',
    'First Input Delay',
    'milliseconds',
    0,
    100,
    300,
    'Delay before the page answers the first input.',
  ),
  browser(
    'timeToInteractive',
    'Time to Interactive',
    'seconds',
    3,
    3.8,
    7.3,
    'Time until the page reliably answers input.',
  ),
  ...HEARTBEAT_DEFS,
  {
    group: 'certificateMetrics',
    name: 'certificateDaysRemaining',
    displayName: 'Certificate days remaining',
    description:
      'Whole days until the TLS certificate the check was shown stops working: the leaf, or an intermediate of its chain that expires first',
    unit: 'days',
    dataType: 'integer',
    availableFor: ['api', 'url', 'browser', 'multistep'],
    calculationMethod: 'latest',
    precision: 0,
    range: { min: -3650, max: 3650 },
    category: 'certificate',
    goodThreshold: 30,
    needsImprovementThreshold: 14,
    calculation:
      'the newest run with a certificate: days from now to the earliest expiry of its presented chain, rounded down',
    examples: [{ value: 60, useCase: 'a certificate renewed every 90 days, a month after its renewal' }],
  },
];

function browser(
  name: string,
  displayName: string,
  unit: string,
  precision: number,
  good: number,
  ni: number,
  description: string,
): Def {
  return {
    group: 'browserSpecificMetrics',
    name,
    displayName,
    description,
    unit,
    dataType: 'number',
    availableFor: BROWSER,
    calculationMethod: 'percentile_95',
    precision,
    range: { min: 0, max: unit === 'score' ? 10 : 60_000 },
    category: 'core_web_vitals',
    goodThreshold: good,
    needsImprovementThreshold: ni,
    calculation: '75th-percentile-style field metric, here the 95th percentile of the runs in the period',
    examples: [{ value: good, useCase: 'the edge of "good"' }],
  };
}

export interface CatalogueOptions {
  category?: string | undefined;
  format: 'detailed' | 'summary';
  includeThresholds: boolean;
  includeExamples: boolean;
  includeCalculations: boolean;
}

export function metricCatalogue(checkType: string, opts: CatalogueOptions): MetricCatalogue {
  const chosen = DEFS.filter(
    (d) => d.availableFor.includes(checkType) && (!opts.category || d.category === opts.category),
  );
  const data: MetricCatalogue['data'] = {
    responseTimeMetrics: [],
    successMetrics: [],
    volumeMetrics: [],
    browserSpecificMetrics: [],
    heartbeatSpecificMetrics: [],
    certificateMetrics: [],
  };
  for (const def of chosen) data[def.group].push(shape(def, opts));
  return {
    data,
    meta: { totalMetrics: chosen.length, categories: [...METRIC_CATEGORIES], checkTypes: [...CHECK_TYPES] },
  };
}

function shape(def: Def, opts: CatalogueOptions): MetricDefinition {
  const { group: _group, calculation, examples, goodThreshold, needsImprovementThreshold, ...base } = def;
  if (opts.format === 'summary') {
    return {
      name: base.name,
      displayName: base.displayName,
      description: base.description,
      unit: base.unit,
      dataType: base.dataType,
      availableFor: base.availableFor,
      calculationMethod: base.calculationMethod,
    };
  }
  const out: MetricDefinition = { ...base };
  if (opts.includeThresholds && goodThreshold !== undefined) out.goodThreshold = goodThreshold;
  if (opts.includeThresholds && needsImprovementThreshold !== undefined)
    out.needsImprovementThreshold = needsImprovementThreshold;
  if (opts.includeCalculations) out.calculation = calculation;
  if (opts.includeExamples) out.examples = examples;
  return out;
}

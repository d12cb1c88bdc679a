// The metric catalogue's heartbeat group (spec 2.5; docs/decisions.md): a job's pings
// and, from a /start to its end, its runs.
import { PCT_RANGE, type Def } from './catalogue-def.js';

export const HEARTBEAT_DEFS: Def[] = [
  heartbeat(
    'uptimePercentage',
    'Uptime',
    'percentage',
    3,
    'uptime_percentage',
    'Share of periods with an on-time ping.',
    99.9,
    99.0,
  ),
  heartbeat('missedHeartbeats', 'Missed heartbeats', 'count', 0, 'sum', 'Periods without an on-time ping.'),
  heartbeat(
    'averageHeartbeatInterval',
    'Average heartbeat interval',
    'seconds',
    1,
    'arithmetic_mean',
    'Mean time between pings.',
  ),
  heartbeat('longestGap', 'Longest gap', 'seconds', 1, 'maximum', 'The longest time without a ping.'),
  heartbeat(
    'heartbeatConsistency',
    'Heartbeat consistency',
    'percentage',
    2,
    'percentage',
    'Share of pings that came on time.',
  ),
  heartbeat(
    'averageRunDuration',
    'Average run duration',
    'seconds',
    1,
    'arithmetic_mean',
    'How long the job ran, from its /start to its end (runs that sent a /start).',
  ),
  heartbeat(
    'longestRunDuration',
    'Longest run',
    'seconds',
    1,
    'maximum',
    'The longest run, from its /start to its end (runs that sent a /start).',
  ),
];

function heartbeat(
  name: string,
  displayName: string,
  unit: string,
  precision: number,
  method: string,
  description: string,
  good?: number,
  ni?: number,
): Def {
  const def: Def = {
    group: 'heartbeatSpecificMetrics',
    name,
    displayName,
    description,
    unit,
    dataType: unit === 'count' ? 'integer' : 'number',
    availableFor: ['heartbeat'],
    calculationMethod: method,
    precision,
    range: unit === 'percentage' ? PCT_RANGE : { min: 0, max: 31_536_000 },
    category: 'heartbeat',
    calculation: `${method.replace(/_/g, ' ')} over the pings of the period`,
    examples: [{ value: 60, useCase: 'a job pinging every minute' }],
  };
  if (good !== undefined) def.goodThreshold = good;
  if (ni !== undefined) def.needsImprovementThreshold = ni;
  return def;
}

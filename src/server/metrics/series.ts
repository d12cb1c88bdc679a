// A family's series as prom-client's registry reads them, handed over as a list made at
// each snapshot (check-families.ts), and how two snapshots' lists are found the same.
import { Counter, type Gauge, type MetricType, type Registry } from 'prom-client';

export type Labels = Record<string, string>;

export interface Series {
  labels: Labels;
  sharedLabels: Labels;
  value: number;
}

export const NO_LABELS: Labels = Object.freeze({}) as Labels;

/**
 * A family whose series are a list made at each snapshot, not set one by one: a
 * prom-client metric (its name and help checked by it) whose `get` answers the list.
 */
export function snapshotFamily<M extends Gauge | Counter>(
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

/** The same series: each the same label set (the object kept per check) and value. */
export function sameSeries(a: readonly Series[], b: readonly Series[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (a[i]!.sharedLabels !== b[i]!.sharedLabels || a[i]!.value !== b[i]!.value) return false;
  return true;
}

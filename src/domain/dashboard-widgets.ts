// A dashboard's widgets as the console reads them. Settings are free-form on the
// wire: a setting of the wrong type counts as absent, never as an error.
import type { Dashboard, Period, Widget } from '../api/schemas/index.js';

export const KNOWN_WIDGETS = ['status_overview', 'check_list', 'metrics_chart'] as const;
export type KnownWidget = (typeof KNOWN_WIDGETS)[number];

const PERIODS: readonly Period[] = ['1h', '6h', '24h', '7d', '30d'];

export function flag(w: Widget | undefined, key: string): boolean {
  return w?.settings[key] === true;
}

export function setting(w: Widget | undefined, key: string): string | undefined {
  const v = w?.settings[key];
  return typeof v === 'string' ? v : undefined;
}

export function isKnownWidget(type: string): type is KnownWidget {
  return (KNOWN_WIDGETS as readonly string[]).includes(type);
}

/** In position order; ties keep the order the service sent. */
export function sortedWidgets(d: Dashboard): Widget[] {
  return d.widgets
    .map((w, i) => ({ w, i }))
    .sort((a, b) => a.w.position - b.w.position || a.i - b.i)
    .map((x) => x.w);
}

/** How the dashboard's rows are drawn: from its first check_list widget, if it has one. */
export function checkListOptions(d: Dashboard): {
  title: string;
  groupByType: boolean;
  showLastResult: boolean;
} {
  const w = sortedWidgets(d).find((x) => x.type === 'check_list');
  return {
    title: w?.title ?? 'Checks',
    groupByType: flag(w, 'groupByType'),
    showLastResult: flag(w, 'showLastResult'),
  };
}

/**
 * A widget's timeRange as one of the periods the results endpoint takes; any
 * other value falls back to 24h and says so.
 */
export function widgetPeriod(w: Widget): { period: Period; note: string | null } {
  const asked = setting(w, 'timeRange');
  if (asked !== undefined && (PERIODS as readonly string[]).includes(asked))
    return { period: asked as Period, note: null };
  return { period: '24h', note: asked === undefined ? null : `timeRange "${asked}" unknown: 24h shown` };
}

/** The distinct periods the metrics charts of a dashboard need. */
export function chartPeriods(d: Dashboard): Period[] {
  const periods = sortedWidgets(d)
    .filter((w) => w.type === 'metrics_chart')
    .map((w) => widgetPeriod(w).period);
  return [...new Set(periods)];
}

/** The dashboard's refresh interval in ms when it is slower than the console's, else the console's. */
export function effectiveRefreshMs(consoleMs: number, d: Dashboard | null): number {
  const seconds = d?.configuration.refreshInterval ?? 0;
  return Math.max(consoleMs, seconds > 0 ? seconds * 1000 : 0);
}

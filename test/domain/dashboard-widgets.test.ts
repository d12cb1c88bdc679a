import { describe, expect, it } from 'vitest';
import type { Dashboard, Widget } from '../../src/api/schemas/index.js';
import {
  chartPeriods,
  checkListOptions,
  effectiveRefreshMs,
  sortedWidgets,
  widgetPeriod,
} from '../../src/domain/dashboard-widgets.js';

const widget = (type: string, settings: Record<string, unknown> = {}, position = 1): Widget => ({
  type,
  position,
  title: type,
  settings,
});

function dashboard(widgets: Widget[], refreshInterval = 60): Dashboard {
  return {
    id: 'd',
    name: 'D',
    description: '',
    isPrivate: true,
    customDomain: null,
    customUrl: 'd',
    tags: [],
    checkIds: [],
    checkGroupIds: [],
    configuration: {
      theme: 'dark',
      logo: null,
      refreshInterval,
      showCheckResults: true,
      showIncidents: true,
      customCSS: null,
    },
    widgets,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
  };
}

describe('dashboard widgets', () => {
  it('orders widgets by position, keeping the sent order on ties', () => {
    const d = dashboard([widget('b', {}, 2), widget('a', {}, 1), widget('c', {}, 2)]);
    expect(sortedWidgets(d).map((w) => w.type)).toEqual(['a', 'b', 'c']);
  });

  it.each([
    [{ groupByType: true, showLastResult: true }, true, true],
    [{ groupByType: 'yes', showLastResult: 1 }, false, false],
    [{}, false, false],
  ])('check_list settings %j read as groupByType %s, showLastResult %s', (settings, byType, last) => {
    expect(checkListOptions(dashboard([widget('check_list', settings)]))).toMatchObject({
      groupByType: byType,
      showLastResult: last,
    });
  });

  it.each([
    [{ timeRange: '1h' }, '1h', null],
    [{ timeRange: '7d' }, '7d', null],
    [{}, '24h', null],
    [{ timeRange: '12h' }, '24h', 'timeRange "12h" unknown: 24h shown'],
    [{ timeRange: 5 }, '24h', null],
  ])('timeRange %j is read as %s', (settings, period, note) => {
    expect(widgetPeriod(widget('metrics_chart', settings))).toEqual({ period, note });
  });

  it('needs one fetch per distinct chart period', () => {
    const d = dashboard([
      widget('metrics_chart', { timeRange: '1h' }),
      widget('metrics_chart', { timeRange: '1h', metric: 'successRate' }),
      widget('metrics_chart', { timeRange: '7d' }),
      widget('status_overview', { timeRange: '30d' }),
    ]);
    expect(chartPeriods(d)).toEqual(['1h', '7d']);
  });

  it.each([
    [10_000, 60, 60_000],
    [10_000, 5, 10_000],
    [10_000, 0, 10_000],
    [30_000, 30, 30_000],
  ])(
    'console %d ms with a dashboard refreshInterval of %d s polls every %d ms',
    (consoleMs, seconds, want) => {
      expect(effectiveRefreshMs(consoleMs, dashboard([], seconds))).toBe(want);
    },
  );
});

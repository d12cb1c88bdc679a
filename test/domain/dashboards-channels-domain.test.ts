// Pure logic behind dashboards, public mode and alert channels, table-driven.
import { describe, expect, it } from 'vitest';
import type { Dashboard, Widget } from '../../src/api/schemas.js';
import {
  barCells,
  canChart,
  combine,
  coveredFrom,
  formatMetric,
  seriesOverTime,
  valuesPerCheck,
  type ChartCheck,
} from '../../src/domain/dashboard-chart.js';
import {
  chartPeriods,
  checkListOptions,
  effectiveRefreshMs,
  sortedWidgets,
  widgetPeriod,
} from '../../src/domain/dashboard-widgets.js';
import { channelTarget, maskConfig, maskPhone, maskUrl } from '../../src/domain/mask.js';
import { parsePublicUrl } from '../../src/domain/public-url.js';
import { statusShares, summarize } from '../../src/domain/summary.js';
import { sampleResult, sampleStatus } from '../helpers/samples.js';

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

describe('parsePublicUrl', () => {
  it.each([
    ['http://127.0.0.1:8787/v1/public/dashboards/status', 'http://127.0.0.1:8787', 'status'],
    ['https://mon.example.com/v1/public/dashboards/status/', 'https://mon.example.com', 'status'],
    [
      'https://example.com/monitoring/v1/public/dashboards/ops-board',
      'https://example.com/monitoring',
      'ops-board',
    ],
    ['http://h/v1/public/dashboards/a%20b', 'http://h', 'a b'],
  ])('%s is %s + %s', (url, baseUrl, slug) => {
    expect(parsePublicUrl(url)).toEqual({ baseUrl, slug });
  });

  it.each([
    ['status', /URL like http\(s\):\/\/host\[:port\]\/v1\/public\/dashboards\/SLUG/],
    ['ftp://h/v1/public/dashboards/x', /http:\/\/ or https:\/\//],
    ['http://h/v1/dashboards/x', /URL like/],
    ['http://h/v1/public/dashboards/', /URL like/],
    ['http://h/v1/public/dashboards/a/b', /URL like/],
    ['http://h/v1/public/dashboards/x?key=1', /URL like/],
    ['http://u:p@h/v1/public/dashboards/x', /without credentials/],
  ])('%s is refused', (url, reason) => {
    const got = parsePublicUrl(url);
    expect('error' in got && got.error).toMatch(reason);
  });
});

describe('summaries and shares', () => {
  it('counts statuses, unknown as the rest, percentages of the total', () => {
    const s = summarize([
      sampleStatus('a', { status: 'failing', alerts: { active: 2, acknowledged: 0, total24h: 3 } }),
      sampleStatus('b', { status: 'passing', availability: { percentage: 90, period: '24h' } }),
      sampleStatus('c', { status: 'unknown', availability: { percentage: null, period: '24h' } }),
      sampleStatus('d', { status: 'degraded' }),
    ]);
    expect(s).toMatchObject({ totalChecks: 4, passing: 1, failing: 1, degraded: 1, activeAlerts: 2 });
    expect(s.averageAvailability).toBeCloseTo((99.5 + 90 + 99.5) / 3, 3);
    expect(statusShares(s).map((x) => [x.status, x.count, x.percent])).toEqual([
      ['failing', 1, 25],
      ['degraded', 1, 25],
      ['unknown', 1, 25],
      ['passing', 1, 25],
    ]);
    expect(statusShares(summarize([])).every((x) => x.percent === null)).toBe(true);
  });
});

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

describe('metrics chart numbers', () => {
  const at = (min: number) => new Date(Date.UTC(2026, 10, 22, 10, min)).toISOString();
  const run = (id: string, min: number, ms: number, ok = true) =>
    sampleResult(id, {
      startedAt: at(min),
      status: ok ? 'success' : 'failed',
      response: { statusCode: 200, statusText: '', headers: {}, body: '', responseTime: ms, size: 0 },
    });
  const a: ChartCheck = { checkId: 'a', checkName: 'A', results: [run('1', 0, 100), run('2', 30, 300)] };
  const b: ChartCheck = { checkId: 'b', checkName: 'B', results: [run('3', 50, 400, false)] };

  it('computes the metric per check and combines it for the dashboard', () => {
    expect(valuesPerCheck('averageResponseTime', [a, b]).map((v) => [v.value, v.runs])).toEqual([
      [200, 2],
      [400, 1],
    ]);
    expect(combine('averageResponseTime', valuesPerCheck('averageResponseTime', [a, b]))).toBeCloseTo(
      800 / 3,
    );
    expect(combine('totalRequests', valuesPerCheck('totalRequests', [a, b]))).toBe(3);
    expect(combine('maxResponseTime', valuesPerCheck('maxResponseTime', [a, b]))).toBe(400);
    expect(combine('minResponseTime', valuesPerCheck('minResponseTime', [a, b]))).toBe(100);
    expect(combine('successRate', valuesPerCheck('successRate', [a, b]))).toBeCloseTo(200 / 3);
    expect(combine('successRate', [])).toBeNull();
  });

  it('draws the metric over time in equal slices, null where no run fell', () => {
    const from = Date.parse(at(0));
    const to = Date.parse(at(60));
    expect(seriesOverTime('averageResponseTime', [a, b], from, to, 4)).toEqual([100, null, 300, 400]);
  });

  it('starts the covered span where a check had more runs than were fetched', () => {
    const from = Date.parse(at(0));
    expect(coveredFrom([a, b], from)).toBe(from);
    const many: ChartCheck = {
      ...a,
      summary: {
        totalRuns: 500,
        successfulRuns: 500,
        failedRuns: 0,
        successRate: 100,
        averageResponseTime: 1,
        p95ResponseTime: 1,
        p99ResponseTime: 1,
      },
    };
    expect(coveredFrom([many, b], from)).toBe(Date.parse(at(0)));
    const later: ChartCheck = { ...many, results: [run('9', 40, 1)] };
    expect(coveredFrom([later, b], from)).toBe(Date.parse(at(40)));
  });

  it.each([
    ['averageResponseTime', 183.4, '183 ms'],
    ['successRate', 99.5, '99.50%'],
    ['totalRequests', 12, '12'],
    ['longestGap', 61.23, '61.2 s'],
    ['cumulativeLayoutShift', 0.12345, '0.123'],
    ['averageResponseTime', null, '—'],
  ])('formats %s %s as %s', (metric, value, text) => {
    expect(formatMetric(metric, value)).toBe(text);
  });

  it('knows which metrics it can chart, and sizes bars', () => {
    expect(canChart('p95ResponseTime')).toBe(true);
    expect(canChart('bogusMetric')).toBe(false);
    expect(barCells(50, 100, 20)).toBe(10);
    expect(barCells(0.1, 100, 20)).toBe(1);
    expect(barCells(null, 100, 20)).toBe(0);
    expect(barCells(200, 100, 20)).toBe(20);
  });
});

describe('masking alert channel secrets', () => {
  it.each([
    ['https://chat.example.com/hooks/T0/B0/secret', 'https://chat.example.com/•••'],
    ['https://example.com', 'https://example.com'],
    ['https://example.com/?key=abc', 'https://example.com/•••'],
    ['not a url', '•••'],
  ])('URL %s shows as %s', (url, shown) => {
    expect(maskUrl(url)).toBe(shown);
  });

  it.each([
    ['+14155550123', '+•••23'],
    ['+1', '•••'],
  ])('number %s shows as %s', (number, shown) => {
    expect(maskPhone(number)).toBe(shown);
  });

  it('hides header and query values of a webhook unless revealed, never the keys', () => {
    const config = {
      url: 'https://bot.example.com/incidents?key=abc123',
      method: 'POST',
      headers: [{ key: 'Authorization', value: 'Bearer s3cr3t' }],
      queryParameters: [{ key: 'team', value: 'sre' }],
    };
    const masked = channelTarget('WEBHOOK', maskConfig('WEBHOOK', config, false));
    expect(masked).toBe('POST https://bot.example.com/••• (Authorization: •••, team=•••)');
    expect(masked).not.toMatch(/s3cr3t|abc123|sre/);
    expect(channelTarget('WEBHOOK', maskConfig('WEBHOOK', config, true))).toContain('Bearer s3cr3t');
    expect(channelTarget('EMAIL', maskConfig('EMAIL', { address: 'a@b.co' }, false))).toBe('a@b.co');
    expect(channelTarget('SMS', maskConfig('SMS', { number: '+4915112345678', name: 'Pager' }, false))).toBe(
      '+•••78 (Pager)',
    );
  });
});

// A test service config with a dashboard of every widget kind, and seeded runs for its chart.
import { DashboardConfigSchema, type ServiceConfig } from '../../src/server/config/schema.js';
import { testConfig } from './service.js';

/** testConfig(checks) plus "widgets": c2, the edge group, and four widgets (one unknown). */
export function widgetsConfig(checks = 8): ServiceConfig {
  const config = testConfig(checks);
  config.accounts[0]!.dashboards.push(
    DashboardConfigSchema.parse({
      id: 'widgets',
      name: 'Widgets',
      description: 'every widget kind',
      customUrl: 'widgets',
      isPrivate: false,
      tags: ['ops', 'demo'],
      checkIds: ['c2'],
      checkGroupIds: ['edge'],
      configuration: { refreshInterval: 120 },
      widgets: [
        {
          type: 'status_overview',
          position: 1,
          title: 'Now',
          settings: { showPercentage: true, timeRange: '24h' },
        },
        {
          type: 'metrics_chart',
          position: 2,
          title: 'Response time',
          settings: { metric: 'averageResponseTime', timeRange: '1h' },
        },
        { type: 'heatmap', position: 3, title: 'Heat', settings: {} },
        {
          type: 'check_list',
          position: 4,
          title: 'All checks',
          settings: { groupByType: true, showLastResult: true },
        },
      ],
    }),
  );
  return config;
}

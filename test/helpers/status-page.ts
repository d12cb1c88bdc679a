// A service config for the status page's tests: a public dashboard with every
// widget kind, a hostile check name, a custom domain, custom CSS and a short
// refresh; beside it the test config's private "ops" and public "status".
import { ServiceConfigSchema, type ServiceConfig } from '../../src/server/config/schema.js';
import { testConfig } from './service.js';

export const HOSTILE = '</title><script>alert(1)</script>';
export const CUSTOM_DOMAIN = 'status.example.test';
/** The custom CSS's mark: the dashboard's name is drawn in this colour. */
export const CUSTOM_COLOUR = 'rgb(1, 2, 3)';

export function statusPageConfig(
  overrides: { theme?: string; refreshInterval?: number } = {},
): ServiceConfig {
  const base = testConfig(4);
  const account = base.accounts[0]!;
  account.checks[0]!.name = HOSTILE;
  return ServiceConfigSchema.parse({
    ...base,
    http: { trustProxy: true, rateLimit: { publicReadsPerSecond: 40 } },
    accounts: [
      {
        ...account,
        dashboards: [
          ...account.dashboards,
          {
            id: 'board',
            name: 'Acme <status>',
            description: 'Our "public" services & more',
            customUrl: 'board',
            customDomain: CUSTOM_DOMAIN,
            isPrivate: false,
            checkIds: ['c1', 'c2', 'c3'],
            configuration: {
              theme: overrides.theme ?? 'dark',
              logo: 'https://example.test/logo.png',
              refreshInterval: overrides.refreshInterval ?? 1,
              showIncidents: true,
              showCheckResults: true,
              customCSS: `.sp-name { color: ${CUSTOM_COLOUR}; }`,
            },
            widgets: [
              { type: 'check_list', position: 2, title: 'Checks', settings: { showLastResult: true } },
              { type: 'status_overview', position: 1, title: 'Now', settings: { showPercentage: true } },
              {
                type: 'metrics_chart',
                position: 3,
                title: 'Response time',
                settings: { metric: 'averageResponseTime', timeRange: '24h' },
              },
              { type: 'metrics_chart', position: 4, title: 'Apdex', settings: { metric: 'apdex' } },
              { type: 'heatmap', position: 5, title: 'Heat', settings: {} },
            ],
          },
        ],
      },
      ...base.accounts.slice(1),
    ],
  });
}

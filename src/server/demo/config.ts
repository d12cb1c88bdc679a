// The demo account: about twenty checks of every type over three locations.
import { ServiceConfigSchema, type ServiceConfig } from '../config/schema.js';
import { browserChecks } from './pages.js';
import { DEMO_SIGNING_SECRET, DEMO_SMS, type DemoReceivers } from './receivers.js';
import type { DemoTargets } from './targets.js';

type DemoReceiverUrls = Pick<DemoReceivers, 'webhook' | 'chat' | 'twilio' | 'smtp'>;

const nowhere = (t: DemoTargets): DemoReceiverUrls => ({
  webhook: `${t.refused}/hooks/incident`,
  chat: `${t.refused}/hooks/chat`,
  twilio: `${t.refused}/twilio`,
  smtp: t.refused.replace(/^http:/, 'smtp:'),
});

/**
 * One channel of each type, subscribed so that the demo's failures page someone; the grouped
 * ones (docs/alerts.md, "Grouping per channel") with a short window, so a look shows one soon.
 */
function demoChannels(r: DemoReceiverUrls) {
  return [
    {
      type: 'EMAIL',
      name: 'On-call mailbox',
      config: { address: 'oncall@example.com' },
      subscriptions: { groups: ['core', 'commerce'] },
    },
    {
      type: 'CHAT',
      name: 'Ops chat',
      config: { url: r.chat, channel: '#ops-alerts' },
      subscriptions: { groups: ['commerce'] },
    },
    {
      type: 'WEBHOOK',
      name: 'Incident bot',
      signingSecret: DEMO_SIGNING_SECRET,
      config: {
        url: r.webhook,
        method: 'POST',
        headers: [{ key: 'Authorization', value: 'Bearer s3cr3t' }],
        queryParameters: [{ key: 'team', value: 'sre' }],
      },
      subscriptions: { groups: ['core', 'commerce', 'internal'] },
    },
    {
      type: 'SMS',
      name: 'Primary pager',
      config: { number: '+14155550123', name: 'Primary on-call' },
      subscriptions: { checks: ['orders-api', 'checkout-api'] },
    },
    {
      type: 'PHONE',
      name: 'Escalation call',
      config: { number: '+4915112345678', name: 'Escalation' },
      subscriptions: { checks: ['billing-legacy'] },
    },
  ].map((c) => (c.type === 'WEBHOOK' ? c : { ...c, groupWindowSeconds: 5 }));
}

export const DEMO_ACCOUNT_ID = '5f0c6d1e-8a2b-4c3d-9e4f-0a1b2c3d4e5f';
export const DEMO_API_KEY = 'cw_demo_0123456789abcdef';
export const HEARTBEAT_TOKENS = { backup: 'hb-backup-7f3a9c2e', worker: 'hb-worker-1d4b8e6a' } as const;

const ALL = ['eu-west', 'us-east', 'ap-south'];

/**
 * `r`: where the channels deliver (the demo's loopback receivers); without it
 * they point where nothing listens, and their deliveries fail.
 */
export function demoConfig(
  t: DemoTargets,
  creds: { accountId: string; apiKey: string },
  r: DemoReceiverUrls = nowhere(t),
): ServiceConfig {
  const api = (id: string, name: string, path: string, extra: Record<string, unknown> = {}) => ({
    id,
    name,
    type: 'api',
    target: `${t.http}${path}`,
    frequency: '15s',
    locations: ALL,
    timeoutMs: 5000,
    assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }],
    ...extra,
  });
  const checks = [
    api('homepage-api', 'Homepage API', '/healthy', {
      group: 'core',
      tags: ['prod', 'public'],
      frequency: '10s',
    }),
    api('users-api', 'Users API', '/healthy', {
      group: 'core',
      tags: ['prod'],
      frequency: '20s',
      assertions: [
        { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' },
        { source: 'JSON_BODY', property: '$.status', comparison: 'EQUALS', target: 'ok' },
        { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '1000' },
      ],
    }),
    api('auth-api', 'Auth tokens', '/healthy', {
      group: 'core',
      tags: ['prod', 'security'],
      frequency: '20s',
    }),
    api('search-api', 'Search API (slow)', '/slow', { group: 'core', tags: ['prod'], degradedMs: 500 }),
    api('payments-api', 'Payments (flapping)', '/flaky', {
      group: 'commerce',
      tags: ['prod', 'money'],
      frequency: '10s',
    }),
    api('orders-api', 'Orders queue', '/orders', {
      group: 'commerce',
      tags: ['prod', 'money'],
      frequency: '10s',
      assertions: [
        { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' },
        { source: 'JSON_BODY', property: '$.status', comparison: 'EQUALS', target: 'ok' },
      ],
    }),
    api('checkout-api', 'Checkout (regional outage)', '/regional', {
      group: 'commerce',
      tags: ['prod', 'money'],
      frequency: '10s',
    }),
    api('billing-legacy', 'Legacy billing (refused)', '/', {
      target: `${t.refused}/`,
      // Still failing: a reminder every two minutes until someone acknowledges.
      alerts: { remindEveryMinutes: 2 },
      group: 'commerce',
      tags: ['legacy'],
      frequency: '10s',
    }),
    api('secure-api', 'Secure API (TLS)', '/healthy', {
      target: `${t.https}/healthy`,
      insecureTls: true,
      group: 'core',
      tags: ['prod', 'tls'],
    }),
    api('inventory-api', 'Inventory', '/healthy', {
      group: 'commerce',
      tags: ['prod'],
      frequency: '30s',
      locations: ['eu-west', 'us-east'],
    }),
    {
      id: 'marketing-site',
      name: 'Marketing site',
      type: 'url',
      target: `${t.http}/healthy`,
      frequency: '30s',
      locations: ALL,
      group: 'internal',
      tags: ['web'],
    },
    {
      id: 'docs-site',
      name: 'Docs',
      type: 'url',
      target: `${t.https}/healthy`,
      insecureTls: true,
      frequency: '60s',
      locations: ['eu-west'],
      group: 'internal',
      tags: ['web', 'tls'],
    },
    {
      id: 'blog',
      name: 'Blog (paused)',
      type: 'url',
      target: `${t.http}/healthy`,
      frequency: '60s',
      locations: ['eu-west'],
      group: 'internal',
      tags: ['web'],
      enabled: false,
    },
    {
      id: 'cache-tcp',
      name: 'Cache port (echo)',
      type: 'tcp',
      target: t.tcp,
      send: 'PING\n',
      expect: 'PING',
      frequency: '20s',
      locations: ALL,
      group: 'core',
      tags: ['infra'],
    },
    {
      id: 'db-tcp',
      name: 'Database port',
      type: 'tcp',
      target: t.tcp,
      frequency: '30s',
      locations: ['eu-west', 'us-east'],
      group: 'core',
      tags: ['infra'],
    },
    {
      id: 'backup-job',
      name: 'Nightly backup heartbeat',
      type: 'heartbeat',
      token: HEARTBEAT_TOKENS.backup,
      frequency: '20s',
      grace: '10s',
      locations: ['eu-west'],
      group: 'internal',
      tags: ['jobs'],
    },
    {
      id: 'queue-worker',
      name: 'Queue worker heartbeat',
      type: 'heartbeat',
      token: HEARTBEAT_TOKENS.worker,
      frequency: '15s',
      grace: '10s',
      locations: ['eu-west'],
      group: 'internal',
      tags: ['jobs'],
    },
    ...browserChecks(t.http, ALL),
    api('status-page', 'Status page', '/healthy', {
      target: `${t.https}/healthy`,
      insecureTls: true,
      group: 'internal',
      tags: ['public', 'tls'],
      frequency: '30s',
    }),
  ];
  return ServiceConfigSchema.parse({
    smtp: { url: r.smtp, from: 'checkwall-demo@localhost' },
    sms: { baseUrl: r.twilio, ...DEMO_SMS },
    // The demo's webhook and chat receivers are on loopback, which deliveries may not reach by default.
    alertDelivery: { allowPrivateNetworks: true },
    accounts: [
      {
        id: creds.accountId,
        name: 'Demo',
        apiKeys: [creds.apiKey],
        maxAlertChannels: 10,
        locations: [
          { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' },
          { id: 'us-east', name: 'Virginia', region: 'us-east-1' },
          { id: 'ap-south', name: 'Singapore', region: 'ap-southeast-1' },
        ],
        groups: [
          { id: 'core', name: 'Core platform' },
          { id: 'commerce', name: 'Commerce' },
          { id: 'internal', name: 'Internal tools' },
        ],
        checks,
        dashboards: [
          {
            id: 'ops',
            name: 'Operations',
            description: 'Everything on-call watches',
            customUrl: 'ops',
            isPrivate: true,
            tags: ['ops'],
            checkGroupIds: ['core', 'commerce'],
            widgets: [
              {
                type: 'status_overview',
                position: 1,
                title: 'Now',
                settings: { showPercentage: true, timeRange: '24h' },
              },
              {
                type: 'check_list',
                position: 2,
                title: 'Checks',
                settings: { groupByType: true, showLastResult: true },
              },
              {
                type: 'metrics_chart',
                position: 3,
                title: 'Response time',
                settings: { metric: 'averageResponseTime', timeRange: '1h' },
              },
            ],
          },
          {
            id: 'commerce',
            name: 'Commerce',
            description: 'Money paths',
            customUrl: 'commerce',
            isPrivate: true,
            tags: ['money'],
            checkGroupIds: ['commerce'],
            widgets: [
              {
                type: 'status_overview',
                position: 1,
                title: 'Commerce',
                settings: { showPercentage: false, timeRange: '24h' },
              },
              {
                type: 'check_list',
                position: 2,
                title: 'Checks',
                settings: { groupByType: false, showLastResult: true },
              },
              { type: 'heatmap', position: 3, title: 'A widget this console does not know', settings: {} },
            ],
          },
          {
            id: 'status',
            name: 'Public status',
            description: 'What customers see',
            customUrl: 'status',
            isPrivate: false,
            tags: ['public'],
            checkIds: ['homepage-api', 'status-page', 'marketing-site'],
            configuration: { theme: 'light', refreshInterval: 30 },
            widgets: [
              {
                type: 'status_overview',
                position: 1,
                title: 'Status',
                settings: { showPercentage: true, timeRange: '24h' },
              },
              {
                type: 'check_list',
                position: 2,
                title: 'Services',
                settings: { groupByType: false, showLastResult: true },
              },
            ],
          },
        ],
        alertChannels: demoChannels(r),
      },
    ],
  });
}

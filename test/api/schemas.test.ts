import { describe, expect, it } from 'vitest';
import {
  AlertChannelCreateSchema,
  AlertChannelsQuerySchema,
  AlertNotificationsQuerySchema,
  AuditEventsQuerySchema,
  CheckResultsQuerySchema,
  CheckStatusesQuerySchema,
  DashboardsQuerySchema,
  MaintenanceListQuerySchema,
  MetricsCheckTypeSchema,
  MetricsQuerySchema,
} from '../../src/api/schemas/index.js';
import { formatPath } from '../../src/api/schemas/index.js';

const firstIssue = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) =>
  result.error ? formatPath(result.error.issues[0]!.path) : undefined;

describe('alert channel bodies', () => {
  it.each([
    [{ type: 'EMAIL', name: 'mail', config: { address: 'ops@example.com' } }],
    [{ type: 'CHAT', name: 'chat', config: { url: 'https://chat.example.com/hook/abc', channel: '#ops' } }],
    [{ type: 'CHAT', name: 'chat', config: { url: 'https://chat.example.com/hook/abc' } }],
    [
      {
        type: 'WEBHOOK',
        name: 'hook',
        config: {
          url: 'https://example.com/hook',
          method: 'POST',
          headers: [{ key: 'X-Token', value: 's3cret' }],
          queryParameters: [{ key: 'team', value: 'sre' }],
        },
      },
    ],
    [{ type: 'SMS', name: 'sms', config: { number: '+4915112345678', name: 'Pager' } }],
    [{ type: 'PHONE', name: 'phone', config: { number: '+14155550123', name: 'Call' } }],
  ])('accepts a valid %#', (body) => {
    expect(AlertChannelCreateSchema.safeParse(body).success).toBe(true);
  });

  it.each([
    [{ type: 'EMAIL', name: 'mail', config: { address: 'not-an-address' } }, 'config.address'],
    [
      { type: 'CHAT', name: 'chat', config: { url: 'https://x.example.com', channel: 'ops' } },
      'config.channel',
    ],
    [{ type: 'CHAT', name: 'chat', config: { url: 'ftp://x.example.com' } }, 'config.url'],
    [
      { type: 'WEBHOOK', name: 'h', config: { url: 'https://x.example.com', method: 'TRACE' } },
      'config.method',
    ],
    [
      {
        type: 'WEBHOOK',
        name: 'h',
        config: { url: 'https://x.example.com', method: 'GET', headers: [{ key: '', value: 'v' }] },
      },
      'config.headers[0].key',
    ],
    [{ type: 'SMS', name: 's', config: { number: '004915112345678', name: 'x' } }, 'config.number'],
    [{ type: 'SMS', name: 's', config: { number: '+0123456789', name: 'x' } }, 'config.number'],
    [{ type: 'PHONE', name: 'p', config: { number: '+14155550123', name: ' ' } }, 'config.name'],
    [{ type: 'PHONE', name: '', config: { number: '+14155550123', name: 'x' } }, 'name'],
    [{ type: 'PAGER', name: 'p', config: {} }, 'type'],
  ])('rejects %j at %s', (body, path) => {
    expect(firstIssue(AlertChannelCreateSchema.safeParse(body))).toBe(path);
  });
});

describe('query parameters', () => {
  it('applies the defaults of section 4', () => {
    expect(CheckResultsQuerySchema.parse({})).toEqual({
      page: 1,
      limit: 10,
      sortBy: 'startedAt',
      sortOrder: 'desc',
      includeSummary: true,
    });
    expect(CheckStatusesQuerySchema.parse({})).toMatchObject({ page: 1, limit: 10, includeSummary: true });
  });

  it('reads the string forms a URL carries', () => {
    const q = CheckStatusesQuerySchema.parse({
      limit: '100',
      hasIncident: 'false',
      tags: 'a, b,,c',
      availabilityMin: '99.5',
    });
    expect(q).toMatchObject({ limit: 100, hasIncident: false, tags: ['a', 'b', 'c'], availabilityMin: 99.5 });
  });

  it.each([
    [{ limit: '101' }, 'limit'],
    [{ limit: '0' }, 'limit'],
    [{ page: 'two' }, 'page'],
    [{ period: '2h' }, 'period'],
    [{ status: 'ok' }, 'status'],
    [{ from: 'yesterday' }, 'from'],
    [{ period: '1h', from: '2026-11-01' }, 'period'],
    [{ from: '2026-11-02', to: '2026-11-01' }, 'from'],
    [{ includeSummary: 'yes' }, 'includeSummary'],
    [{ sortBy: 'name' }, 'sortBy'],
  ])('rejects results query %j at %s', (query, path) => {
    expect(firstIssue(CheckResultsQuerySchema.safeParse(query))).toBe(path);
  });

  // One paging query (src/api/schemas/common.ts): the spec types page and limit as
  // integers, so every list refuses the same values; each keeps its documented default.
  it.each([
    ['check results', CheckResultsQuerySchema, 10],
    ['check statuses', CheckStatusesQuerySchema, 10],
    ['dashboards', DashboardsQuerySchema, 10],
    ['alert channels', AlertChannelsQuerySchema, 10],
    ['alert notifications', AlertNotificationsQuerySchema, 10],
    ['maintenance windows', MaintenanceListQuerySchema, 20],
    ['audit events', AuditEventsQuerySchema, 20],
  ] as const)('pages the %s list like every other, %i by default', (_, schema, limit) => {
    expect(schema.parse({})).toMatchObject({ page: 1, limit });
    expect(schema.parse({ page: ' 3 ', limit: '100' })).toMatchObject({ page: 3, limit: 100 });
    for (const page of ['1e1', '0x10', '', '1.5', '0', '1000001'])
      expect(firstIssue(schema.safeParse({ page })), page).toBe('page');
    for (const limit of ['0', '101', '1e1'])
      expect(firstIssue(schema.safeParse({ limit })), limit).toBe('limit');
  });

  it('takes the metrics check type in either case', () => {
    expect(MetricsCheckTypeSchema.parse('BROWSER')).toBe('browser');
    expect(MetricsCheckTypeSchema.parse('heartbeat')).toBe('heartbeat');
    expect(MetricsCheckTypeSchema.safeParse('ping').success).toBe(false);
    expect(MetricsQuerySchema.parse({ format: 'summary' })).toMatchObject({
      format: 'summary',
      includeThresholds: true,
    });
  });
});

// Wire records that parse with the shared schemas, for fixtures and store tests.
import type {
  CheckResult,
  CheckResultList,
  CheckStatus,
  Dashboard,
  StatusSummary,
} from '../../src/api/schemas/index.js';
import type { MaintenanceWindow } from '../../src/api/schemas/maintenance.js';

export function sampleStatus(id: string, overrides: Partial<CheckStatus> = {}): CheckStatus {
  return {
    checkId: id,
    checkName: `Check ${id}`,
    checkType: 'api',
    status: 'passing',
    availability: { percentage: 99.5, period: '24h' },
    performance: { averageResponseTime: 120, p95ResponseTime: 240, trend: 'stable' },
    lastExecution: {
      timestamp: '2026-11-22T10:00:00.000Z',
      status: 'success',
      responseTime: 118,
      location: 'eu-west',
    },
    currentIncident: null,
    alerts: { active: 0, acknowledged: 0, total24h: 0 },
    schedule: { frequency: '1m', nextRun: '2026-11-22T10:01:00.000Z', enabled: true },
    locations: [
      { id: 'eu-west', name: 'Frankfurt', status: 'passing', lastSuccess: '2026-11-22T10:00:00.000Z' },
    ],
    tags: ['demo'],
    group: { id: 'core', name: 'Core' },
    ...overrides,
  };
}

export function sampleSummary(overrides: Partial<StatusSummary> = {}): StatusSummary {
  return {
    totalChecks: 1,
    passing: 1,
    failing: 0,
    degraded: 0,
    averageAvailability: 99.5,
    activeIncidents: 0,
    activeAlerts: 0,
    ...overrides,
  };
}

export function sampleResult(id: string, overrides: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    checkId: 'c1',
    checkName: 'Check c1',
    checkType: 'api',
    runId: `run-${id}`,
    status: 'success',
    startedAt: '2026-11-22T10:00:00.000Z',
    finishedAt: '2026-11-22T10:00:00.150Z',
    duration: 150,
    location: { id: 'eu-west', name: 'Frankfurt', region: 'eu-west-1' },
    request: { method: 'GET', url: 'http://127.0.0.1/health', headers: {}, body: null },
    response: { statusCode: 200, statusText: 'OK', headers: {}, body: '{}', responseTime: 150, size: 2 },
    assertions: [{ source: 'STATUS_CODE', property: '', comparison: 'EQUALS', target: '200', passed: true }],
    timing: { dns: 1, tcp: 2, firstByte: 140, download: 7, total: 150 },
    tags: [],
    triggeredBy: 'schedule',
    ...overrides,
  };
}

/** One page of check c1's (Payments) results, as GET /v1/check-results answers it. */
export function resultList(data: CheckResult[]): CheckResultList {
  return {
    data,
    meta: {
      checkId: 'c1',
      checkName: 'Payments',
      currentPage: 1,
      totalPages: 1,
      totalItems: data.length,
      limit: 20,
      hasMore: false,
      timeframe: { from: '2026-11-21T10:00:00.000Z', to: '2026-11-22T10:00:00.000Z' },
    },
  };
}

export function statusPage(data: CheckStatus[], page: number, totalPages: number, totalItems: number) {
  return {
    data,
    meta: {
      currentPage: page,
      totalPages,
      totalItems,
      limit: 100,
      summary: sampleSummary({ totalChecks: totalItems }),
    },
  };
}

export function sampleDashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    id: 'd',
    name: 'Jobs',
    description: '',
    isPrivate: true,
    customDomain: null,
    customUrl: 'jobs',
    tags: [],
    checkIds: [],
    checkGroupIds: [],
    configuration: {
      theme: 'dark',
      logo: null,
      refreshInterval: 0,
      showCheckResults: true,
      showIncidents: true,
      customCSS: null,
    },
    widgets: [],
    createdAt: '2026-11-22T09:00:00.000Z',
    updatedAt: '2026-11-22T09:00:00.000Z',
    ...overrides,
  };
}

/** An active maintenance window over one check, begun a minute before `now`, 25.5 minutes left. */
export function sampleWindow(
  id: string,
  over: Partial<MaintenanceWindow> = {},
  now = Date.now(),
): MaintenanceWindow {
  return {
    id,
    name: 'deploy 4.2',
    reason: 'rolling deploy of the API',
    createdBy: 'ci-key',
    createdAt: new Date(now - 60_000).toISOString(),
    scope: { checks: ['api'] },
    startsAt: new Date(now - 60_000).toISOString(),
    endsAt: new Date(now + 25 * 60_000 + 30_000).toISOString(),
    repeat: null,
    mode: 'silence',
    excludeFromAvailability: false,
    state: 'active',
    occurrence: null,
    source: 'api',
    endedEarlyAt: null,
    ...over,
  };
}

// What the public dashboard read shows of a check: an explicit list of fields, so
// a field added to the internal status later stays private until it is added here.
// The read needs no credentials: nothing that names an internal address (errors,
// assertion values, status reasons), the alerting (alert ids, counts), the runners
// or how the check is filed (tags, group, schedule) leaves through it.
import type { CheckResult, CheckStatus, Dashboard, PublicCheckStatus } from '../../api/schemas/index.js';

/** How many of a check's newest runs the public read lists when the dashboard shows results. */
export const PUBLIC_RECENT_RESULTS = 10;

export function publicCheckStatus(
  s: CheckStatus,
  shows: Dashboard['configuration'],
  recent: readonly CheckResult[],
): PublicCheckStatus {
  const out: PublicCheckStatus = {
    checkId: s.checkId,
    checkName: s.checkName,
    checkType: s.checkType,
    status: s.status,
    availability: { percentage: s.availability.percentage, period: s.availability.period },
    performance: {
      averageResponseTime: s.performance.averageResponseTime,
      p95ResponseTime: s.performance.p95ResponseTime,
      trend: s.performance.trend,
    },
    lastExecution: s.lastExecution && {
      timestamp: s.lastExecution.timestamp,
      status: s.lastExecution.status,
      responseTime: s.lastExecution.responseTime,
    },
    locations: s.locations.map((l) => ({ id: l.id, name: l.name, status: l.status })),
  };
  if (shows.showIncidents) out.currentIncident = s.currentIncident && publicIncident(s);
  if (shows.showCheckResults)
    out.recentResults = recent.slice(0, PUBLIC_RECENT_RESULTS).map((r) => ({
      startedAt: r.startedAt,
      status: r.status,
      responseTime: r.response?.responseTime ?? r.duration,
    }));
  return out;
}

/** The incident with a title that says what, never why: the internal title quotes the failure. */
function publicIncident(s: CheckStatus): NonNullable<PublicCheckStatus['currentIncident']> {
  const incident = s.currentIncident!;
  const what = incident.severity === 'critical' ? 'outage' : 'degraded performance';
  return {
    id: incident.id,
    severity: incident.severity,
    startedAt: incident.startedAt,
    title: `${s.checkName}: ${what}`,
  };
}

/**
 * The dashboard of the public read, field by field. How it is filed (tags, groups) and the
 * custom domain that serves it stay private: the fields stay, empty, so `checkwall --public`
 * and older executables still read it.
 */
export function publicDashboard(d: Dashboard): Dashboard {
  const c = d.configuration;
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    isPrivate: d.isPrivate,
    customDomain: null,
    customUrl: d.customUrl,
    tags: [],
    checkIds: d.checkIds,
    checkGroupIds: [],
    configuration: {
      theme: c.theme,
      logo: c.logo,
      refreshInterval: c.refreshInterval,
      showCheckResults: c.showCheckResults,
      showIncidents: c.showIncidents,
      customCSS: c.customCSS,
    },
    widgets: d.widgets,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

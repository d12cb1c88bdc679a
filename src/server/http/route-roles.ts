// The role each account route needs (docs/roles.md), in one table: the guard
// refuses a key without it before the body is read, and a route registered
// without an entry here stops the service at start (guard.ts), so no route is
// ever open to every key by being forgotten. Routes that take no account key
// (public dashboards, heartbeat pings, /v1/runner/) are not here.
import type { Role } from '../../api/schemas/actions.js';

/** `METHOD url` as fastify declares it → the least role that may call it. */
export const ROUTE_ROLES: Readonly<Record<string, Role>> = {
  'GET /v1/me': 'read',
  'GET /v1/check-statuses': 'read',
  'GET /v1/check-results/:checkId': 'read',
  'GET /v1/check-results/:checkId/:resultId/screenshot': 'read',
  'GET /v1/dashboards': 'read',
  'GET /v1/analytics/metrics/:checkType': 'read',
  'GET /v1/alert-channels': 'read',
  'GET /v1/alert-channels/:id/subscriptions': 'read',
  'GET /v1/alert-channels/:id/grouping': 'read',
  'GET /v1/alert-notifications': 'read',
  'GET /v1/audit-events': 'read',
  'GET /v1/check-history/:checkId': 'read',
  'GET /v1/check-runs': 'read',
  'GET /v1/check-runs/:runId': 'read',
  'GET /metrics': 'read',
  'POST /v1/check-alerts/:alertId/acknowledge': 'operate',
  'POST /v1/check-runs': 'operate',
  'POST /v1/checks/:checkId/pause': 'operate',
  'POST /v1/checks/:checkId/resume': 'operate',
  'GET /v1/maintenance-windows': 'read',
  'GET /v1/maintenance-windows/:id': 'read',
  'POST /v1/maintenance-windows': 'operate',
  'PATCH /v1/maintenance-windows/:id': 'operate',
  'DELETE /v1/maintenance-windows/:id': 'operate',
  'POST /v1/alert-channels': 'admin',
  'POST /v1/alert-channels/:id/test': 'admin',
  'PUT /v1/alert-channels/:id/subscriptions': 'admin',
  'PUT /v1/alert-channels/:id/grouping': 'admin',
};

/** The role a route needs; a HEAD is its GET. Undefined: not in the table. */
export function routeRole(method: string, url: string): Role | undefined {
  return ROUTE_ROLES[`${method === 'HEAD' ? 'GET' : method} ${url}`];
}

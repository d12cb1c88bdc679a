// A dashboard's reach by id or custom URL, for the commands that take
// `--dashboard` (`wall`, `status`); apart from them so `status` loads no Ink.
import { readAllPages, type MonitoringClient } from '../api/client.js';
import { describeError } from '../api/errors.js';
import { scopeOf } from '../store/dashboards-slice.js';
import type { Scope } from '../store/types.js';

/** The dashboard's reach, or a sentence on why it could not be had. */
export async function dashboardScope(client: MonitoringClient, id: string): Promise<Scope | string> {
  try {
    const pages = await readAllPages((page) => client.dashboards({ page, limit: 100 }));
    const dashboard = pages.flatMap((p) => p.data).find((d) => d.id === id || d.customUrl === id);
    if (!dashboard) return `no dashboard "${id}" in this account`;
    return scopeOf(dashboard);
  } catch (error) {
    return `could not read the dashboards: ${describeError(error)}`;
  }
}

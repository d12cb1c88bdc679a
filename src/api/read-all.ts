// Reading a whole list a page at a time: every page of check statuses for the
// board and `status`, every page of dashboards for the wall's scope.
import type { CallOptions, MonitoringClient } from './client.js';
import type {
  CheckStatus,
  CheckStatusesQuery,
  LocationOutage,
  ServiceHealth,
  StatusSummary,
} from './schemas/index.js';

export interface AllStatuses {
  checks: CheckStatus[];
  summary: StatusSummary | undefined;
  /** The service's own health, when it reports it (with page 1). */
  service?: ServiceHealth | undefined;
  /** Locations the service declares down now (with page 1; absent: it does not say). */
  locationOutages?: LocationOutage[] | undefined;
}

/** Reads every page of check statuses (100 a page) with the account-wide summary. */
export async function readAllStatuses(
  client: Pick<MonitoringClient, 'checkStatuses'>,
  query: Omit<CheckStatusesQuery, 'page' | 'limit'> = {},
  opts?: CallOptions,
): Promise<AllStatuses> {
  // By name unless asked otherwise: an order that cannot change between two pages
  // (the default, newest run first, moves checks across pages while they are read,
  // so a poll could miss some and see others twice). The summary comes with page 1.
  const pages = await readAllPages((page) =>
    client.checkStatuses(
      { sortBy: 'name', ...query, page, limit: 100, ...(page > 1 ? { includeSummary: false } : {}) },
      opts,
    ),
  );
  const first = pages[0]?.meta;
  return {
    checks: pages.flatMap((p) => p.data),
    summary: first?.summary,
    service: first?.service,
    locationOutages: first?.locationOutages,
  };
}

/**
 * Fetches page 1, then the rest, `concurrency` at a time, in page order. The
 * first page says how many there are; the next are asked for before the one
 * before has come back, so 100 pages cost a fraction of 100 round trips.
 */
export async function readAllPages<P extends { data: unknown[]; meta: { totalPages: number } }>(
  fetchPage: (page: number) => Promise<P>,
  concurrency = 4,
): Promise<P[]> {
  const first = await fetchPage(1);
  const total = first.data.length === 0 ? 1 : first.meta.totalPages;
  const pages: P[] = [first];
  let next = 2;
  const worker = async () => {
    while (next <= total) {
      const page = next++;
      pages[page - 1] = await fetchPage(page);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, total - 1)) }, worker));
  // A page that came back empty ends the list there (the list shrank while it was read).
  const empty = pages.findIndex((p) => p.data.length === 0);
  return empty < 0 ? pages : pages.slice(0, empty + 1);
}

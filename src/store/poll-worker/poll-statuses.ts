// One poll of the check statuses, as the worker runs it: the whole list or only
// the failing and degraded checks (domain/poll-tiers.ts decides), each page a
// conditional read, compared with the last poll. What comes out is only what
// changed: the checks whose status differs, the ids that left the account, and
// the summary. Runs in the worker thread, and in tests on the test's own thread.
import type { CallOptions, MonitoringClient } from '../../api/client.js';
import { readAllPages } from '../../api/read-all.js';
import type { CheckStatus, LocationOutage, ServiceHealth, StatusSummary } from '../../api/schemas/index.js';
import { PAGE_SIZE, planTiers, sweepDue, type TierPlan } from '../../domain/poll-tiers.js';
import type { ListName, StatusTracker } from './status-tracker.js';

export type StatusReader = Pick<MonitoringClient, 'checkStatusesIfChanged'>;

export interface StatusChanges {
  changed: CheckStatus[];
  removed: string[];
  summary: StatusSummary | null;
  /** The service's own health, when it reports it. */
  service?: ServiceHealth | null | undefined;
  /** Locations the service declares down now (page 1's meta). */
  locationOutages?: LocationOutage[] | undefined;
  plan: TierPlan;
  /** This poll read the whole list. */
  swept: boolean;
  requests: number;
  /** Pages that came back unchanged (304, or the same bytes) and were not parsed. */
  unchangedPages: number;
}

export interface PollState {
  tracker: StatusTracker;
  totalPages: number | undefined;
  hotPages: number;
  sinceSweep: number | undefined;
  leftHot: boolean;
  summary: StatusSummary | null;
  service?: ServiceHealth | null | undefined;
  /** Locations the service declares down now (page 1's meta). */
  locationOutages?: LocationOutage[] | undefined;
}

interface PageOut {
  data: string[];
  meta: { totalPages: number };
  summary: StatusSummary | undefined;
  service?: ServiceHealth | undefined;
  locationOutages?: LocationOutage[] | undefined;
  unchanged: boolean;
}

/**
 * Where a poll's changed checks go as each page is compared. The worker posts
 * them a page at a time, so neither thread ever holds a first load of 10,000
 * parsed statuses in one array and its structured clone at once.
 */
export type ChangedSink = (checks: CheckStatus[]) => void;

export async function pollStatuses(
  reader: StatusReader,
  state: PollState,
  refreshMs: number,
  opts: CallOptions = {},
  sink?: ChangedSink,
): Promise<StatusChanges> {
  const plan = planTiers(state.totalPages ?? 0, refreshMs, state.hotPages);
  const swept = state.totalPages === undefined || sweepDue({ ...state, plan });
  const lists: ListName[] = swept ? ['all'] : ['failing', 'degraded'];
  const byId = new Map<string, CheckStatus>();
  const compared: string[] = [];
  const take = (changed: CheckStatus[]) => {
    for (const c of changed) compared.push(c.checkId);
    if (sink) sink(changed);
    else for (const c of changed) byId.set(c.checkId, c);
  };
  const reads = [];
  try {
    for (const list of lists) reads.push(await readList(reader, state.tracker, list, opts, take));
  } catch (error) {
    // What this poll compared (and perhaps sent) must come again with the next one.
    state.tracker.forgetPoll(compared);
    throw error;
  }
  const pages = reads.flat();
  const seen = new Set(pages.flatMap((p) => p.data));
  let removed: string[] = [];
  if (swept) {
    removed = state.tracker.removeUnseen(seen);
    state.totalPages = pages.length;
    state.sinceSweep = 0;
    state.leftHot = false;
  } else {
    state.hotPages = pages.length;
    state.sinceSweep = (state.sinceSweep ?? 0) + 1;
    state.leftHot ||= state.tracker.anyLeftHot(seen);
  }
  state.summary = pages[0]?.summary ?? state.summary;
  if (pages[0]?.summary) {
    state.service = pages[0].service ?? null;
    state.locationOutages = pages[0].locationOutages ?? [];
  }
  const unchangedPages = pages.filter((p) => p.unchanged).length;
  return {
    changed: [...byId.values()],
    removed,
    summary: state.summary,
    service: state.service ?? null,
    locationOutages: state.locationOutages ?? [],
    plan: planTiers(state.totalPages ?? 0, refreshMs, state.hotPages),
    swept,
    requests: pages.length,
    unchangedPages,
  };
}

export function initialPollState(tracker: StatusTracker): PollState {
  return {
    tracker,
    totalPages: undefined,
    hotPages: 2,
    sinceSweep: undefined,
    leftHot: false,
    summary: null,
  };
}

/**
 * Every page of one list, in page order; each read page's checks are compared as
 * it arrives (and the parsed page let go), what changed handed to `take`.
 */
async function readList(
  reader: StatusReader,
  tracker: StatusTracker,
  list: ListName,
  opts: CallOptions,
  take: ChangedSink,
): Promise<PageOut[]> {
  // By name: an order that cannot change between two pages (see api/read-all.ts).
  const filter = list === 'all' ? {} : { status: list };
  const pages = await readAllPages<PageOut>(async (page) => {
    // The summary is account-wide: the first page of the first list brings it.
    const includeSummary = page === 1 && list !== 'degraded';
    const query = { sortBy: 'name' as const, ...filter, page, limit: PAGE_SIZE, includeSummary };
    const known = tracker.page(list, page);
    const read = await reader.checkStatusesIfChanged(query, known ?? {}, opts);
    if (!read.changed && known) return { ...pageOf(known), unchanged: true };
    if (!read.changed) throw new Error('an unchanged answer to a page never read'); // the client never says so
    const { data, meta } = read.value;
    const memo = {
      etag: read.etag,
      digest: read.digest,
      ids: data.map((c) => c.checkId),
      totalPages: data.length === 0 ? 1 : meta.totalPages,
      summary: meta.summary,
      service: meta.service,
      locationOutages: meta.locationOutages,
    };
    tracker.rememberPage(list, page, memo);
    take(tracker.compare(data));
    return { ...pageOf(memo), unchanged: false };
  });
  tracker.trimPages(list, pages.length);
  return pages;
}

const pageOf = (memo: {
  ids: string[];
  totalPages: number;
  summary: StatusSummary | undefined;
  service?: ServiceHealth | undefined;
  locationOutages?: LocationOutage[] | undefined;
}) => ({
  data: memo.ids,
  meta: { totalPages: memo.totalPages },
  summary: memo.summary,
  service: memo.service,
  locationOutages: memo.locationOutages,
});

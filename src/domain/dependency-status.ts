// A parent failing at a location, read from statuses (docs/alerts.md, "Dependencies"): it is
// failing there when its alert is open and its status there is failing, since its alert
// opened. Shared by the statuses' `heldBy` and the hold of a dependent's page.
import { heldByParent, type DependencyHold, type FailingAt } from './dependencies.js';

/** What is read of a check's status (the wire's CheckStatus has these). */
export interface StatusView {
  checkId: string;
  checkName: string;
  currentAlert?: { openedAt: string } | null | undefined;
  locations: ReadonlyArray<{ id: string; name: string; status: string }>;
}

/** Where each check with an open alert is failing, and since when (its alert's opening, epoch ms). */
export function failingAt(statuses: Iterable<StatusView>): FailingAt {
  const out = new Map<string, Map<string, number>>();
  for (const s of statuses) {
    if (!s.currentAlert) continue;
    const since = Date.parse(s.currentAlert.openedAt);
    const where = new Map(s.locations.filter((l) => l.status === 'failing').map((l) => [l.id, since]));
    if (where.size > 0) out.set(s.checkId, where);
  }
  return out;
}

/** The parents' statuses by id, and where each runs: what heldByParent reads. */
export interface ParentView<S extends StatusView = StatusView> {
  byId: ReadonlyMap<string, S>;
  runsAt: (check: string) => string[];
  failing: FailingAt;
}

export function parentView<S extends StatusView>(statuses: Iterable<S>): ParentView<S> {
  const byId = new Map<string, S>();
  for (const s of statuses) byId.set(s.checkId, s);
  const runsAt = (id: string) => byId.get(id)?.locations.map((l) => l.id) ?? [];
  return { byId, runsAt, failing: failingAt(byId.values()) };
}

/** The hold of a check at any of its locations, the earliest failure named. */
export function dependencyHoldOf(
  status: StatusView,
  parents: readonly string[],
  view: ParentView,
): DependencyHold | null {
  let held: DependencyHold | null = null;
  for (const l of status.locations) {
    const here = heldByParent(parents, l.id, view.runsAt, view.failing);
    if (here && (!held || here.since < held.since)) held = here;
  }
  return held;
}

// Dependencies between checks (docs/alerts.md, "One page per cause"): a check, or a
// group, names the checks or groups it depends on (`dependsOn: ["db", "group:core"]`).
// While a parent fails at a location, a dependent's pages at that location are held.
// Here: what a config's declarations mean (each check's parents, a group's parents
// shared by its checks), the errors a config can hold (an unknown id, a cycle, named
// by its path), and whether a parent holds a dependent at a location now.

/** What this module needs of a check: its id, its group, where it runs, what it declares. */
export interface DependentCheck {
  id: string;
  group?: string | undefined;
  locations: readonly string[];
  dependsOn?: readonly string[] | undefined;
}

export interface DependentGroup {
  id: string;
  dependsOn?: readonly string[] | undefined;
}

/** One parent as declared: a check, or a group (failing when any of its checks is). */
export type Parent = { kind: 'check'; id: string } | { kind: 'group'; id: string };

export const GROUP_PREFIX = 'group:';

export function parseParent(ref: string): Parent {
  return ref.startsWith(GROUP_PREFIX)
    ? { kind: 'group', id: ref.slice(GROUP_PREFIX.length) }
    : { kind: 'check', id: ref };
}

/** A check's parents: its own declarations, then its group's, each once. */
export function parentsOf(check: DependentCheck, groups: ReadonlyMap<string, DependentGroup>): string[] {
  const own = check.dependsOn ?? [];
  const inherited = check.group ? (groups.get(check.group)?.dependsOn ?? []) : [];
  return [...new Set([...own, ...inherited])];
}

export interface DependencyError {
  /** Where in the account the declaration is: `checks[3].dependsOn[1]`, `groups[0].dependsOn[0]`. */
  path: Array<string | number>;
  message: string;
}

/**
 * Every unknown id and every cycle among the account's declarations. A cycle is named
 * by its path through checks (`a → b → a`); a group parent stands for each of its checks.
 */
export function dependencyErrors(
  checks: readonly DependentCheck[],
  groups: readonly DependentGroup[],
): DependencyError[] {
  const errors: DependencyError[] = [];
  const checkIds = new Set(checks.map((c) => c.id));
  const groupIds = new Set(groups.map((g) => g.id));
  const known = (p: Parent) => (p.kind === 'check' ? checkIds.has(p.id) : groupIds.has(p.id));
  const unknown = (declared: readonly string[] | undefined, at: (j: number) => Array<string | number>) =>
    (declared ?? []).forEach((ref, j) => {
      const p = parseParent(ref);
      if (!known(p))
        errors.push({ path: at(j), message: `no ${p.kind} "${p.id}" in this account to depend on` });
    });
  checks.forEach((c, i) => unknown(c.dependsOn, (j) => ['checks', i, 'dependsOn', j]));
  groups.forEach((g, i) => unknown(g.dependsOn, (j) => ['groups', i, 'dependsOn', j]));
  const cycle = firstCycle(checks, groups);
  if (cycle) {
    const at = checks.findIndex((c) => c.id === cycle[0]);
    errors.push({ path: ['checks', at, 'dependsOn'], message: `dependency cycle: ${cycle.join(' → ')}` });
  }
  return errors;
}

/** The parent checks of each check, a group parent expanded to its checks. */
export function parentChecks(
  checks: readonly DependentCheck[],
  groups: readonly DependentGroup[],
): Map<string, string[]> {
  const byGroup = new Map<string, string[]>();
  for (const c of checks) if (c.group) byGroup.set(c.group, [...(byGroup.get(c.group) ?? []), c.id]);
  const groupMap = new Map(groups.map((g) => [g.id, g]));
  const out = new Map<string, string[]>();
  for (const c of checks) {
    const ids = parentsOf(c, groupMap).flatMap((ref) => {
      const p = parseParent(ref);
      return p.kind === 'check' ? [p.id] : (byGroup.get(p.id) ?? []);
    });
    // A check in a group that depends on its own group does not depend on itself.
    out.set(
      c.id,
      [...new Set(ids)].filter((id) => id !== c.id),
    );
  }
  return out;
}

function firstCycle(checks: readonly DependentCheck[], groups: readonly DependentGroup[]): string[] | null {
  const edges = parentChecks(checks, groups);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const parent of edges.get(id) ?? []) {
      const found = visit(parent);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const c of checks) {
    const found = visit(c.id);
    if (found) return found;
  }
  return null;
}

/** Where each parent check is failing now, and since when (epoch ms). */
export type FailingAt = ReadonlyMap<string, ReadonlyMap<string, number>>;

export interface DependencyHold {
  parent: string;
  /** The location the parent fails at that holds this one; null: it fails elsewhere (it does not run here). */
  location: string | null;
  since: number;
}

/**
 * Whether a dependent's page at `location` is held now, and by which parent: a parent
 * failing at that location holds it; a parent that does not run there holds it while it
 * fails anywhere. The earliest failure among the parents that hold is named.
 */
export function heldByParent(
  parents: readonly string[],
  location: string,
  runsAt: (check: string) => readonly string[],
  failing: FailingAt,
): DependencyHold | null {
  let held: DependencyHold | null = null;
  for (const parent of parents) {
    const where = failing.get(parent);
    if (!where || where.size === 0) continue;
    const here = where.get(location);
    const candidate: DependencyHold | null =
      here !== undefined
        ? { parent, location, since: here }
        : runsAt(parent).includes(location)
          ? null
          : { parent, location: null, since: Math.min(...where.values()) };
    if (candidate && (!held || candidate.since < held.since)) held = candidate;
  }
  return held;
}

// The board's filter language, shared by the console, `wall` and `status`:
//   words            match name, tag, type or group (all words must match)
//   status:failing   (s:) also a comma list: status:failing,degraded
//   type:api (t:)    tag:prod    group:core (g:)    location:eu-west (loc:)
//   incident:yes|no  -word or -key:value negates
import type { CheckStatus } from '../api/schemas/index.js';
import { CHECK_STATUSES } from './check-statuses.js';

export type FilterKey = 'status' | 'type' | 'tag' | 'group' | 'location' | 'incident' | 'text';

export interface FilterTerm {
  key: FilterKey;
  values: string[]; // lower-case; any of them matches
  negate: boolean;
}

export interface CheckFilter {
  terms: FilterTerm[];
}

const ALIASES: Record<string, FilterKey> = {
  status: 'status',
  s: 'status',
  type: 'type',
  t: 'type',
  tag: 'tag',
  tags: 'tag',
  group: 'group',
  g: 'group',
  location: 'location',
  loc: 'location',
  l: 'location',
  incident: 'incident',
};

export function parseFilter(input: string): { filter: CheckFilter; errors: string[] } {
  const terms: FilterTerm[] = [];
  const errors: string[] = [];
  for (const raw of input.trim().split(/\s+/).filter(Boolean)) {
    const negate = raw.startsWith('-') && raw.length > 1;
    const body = negate ? raw.slice(1) : raw;
    const colon = body.indexOf(':');
    if (colon <= 0) {
      terms.push({ key: 'text', values: [body.toLowerCase()], negate });
      continue;
    }
    const key = ALIASES[body.slice(0, colon).toLowerCase()];
    const values = body
      .slice(colon + 1)
      .toLowerCase()
      .split(',')
      .filter(Boolean);
    if (!key) {
      errors.push(
        `unknown filter "${body.slice(0, colon)}" (use status, type, tag, group, location, incident)`,
      );
      continue;
    }
    const bad = badValues(key, values);
    if (values.length === 0 || bad) {
      errors.push(bad ?? `"${body}" needs a value`);
      continue;
    }
    terms.push({ key, values, negate });
  }
  return { filter: { terms }, errors };
}

function badValues(key: FilterKey, values: string[]): string | undefined {
  if (key === 'status') {
    const wrong = values.filter((v) => !(CHECK_STATUSES as readonly string[]).includes(v));
    return wrong.length
      ? `unknown status "${wrong.join(',')}" (use ${CHECK_STATUSES.join(', ')})`
      : undefined;
  }
  if (key === 'incident' && values.some((v) => v !== 'yes' && v !== 'no')) return 'incident takes yes or no';
  return undefined;
}

export function matchesFilter(check: CheckStatus, filter: CheckFilter): boolean {
  return filter.terms.every((term) => termMatches(check, term) !== term.negate);
}

function termMatches(c: CheckStatus, term: FilterTerm): boolean {
  const any = (candidates: Array<string | undefined>, exact: boolean) =>
    term.values.some((v) =>
      candidates.some(
        (x) => x !== undefined && (exact ? x.toLowerCase() === v : x.toLowerCase().includes(v)),
      ),
    );
  switch (term.key) {
    case 'status':
      return term.values.includes(c.status);
    case 'type':
      return any([c.checkType], true);
    case 'tag':
      return any(c.tags, true);
    case 'group':
      return any([c.group?.id, c.group?.name], false);
    case 'location':
      return any(
        c.locations.flatMap((l) => [l.id, l.name]),
        false,
      );
    case 'incident':
      return term.values.includes(c.currentIncident ? 'yes' : 'no');
    case 'text':
      return any([c.checkName, c.checkId, c.checkType, c.group?.name, c.group?.id, ...c.tags], false);
  }
}

/** The part of a filter the statuses endpoint can apply itself (the rest stays client-side). */
export function filterToQuery(filter: CheckFilter): Record<string, string | boolean> {
  const query: Record<string, string | boolean> = {};
  for (const t of filter.terms) {
    if (t.negate || t.values.length !== 1) continue;
    const v = t.values[0]!;
    if (t.key === 'status' && v !== 'unknown') query['status'] = v;
    if (t.key === 'type') query['checkType'] = v;
    if (t.key === 'incident') query['hasIncident'] = v === 'yes';
  }
  return query;
}

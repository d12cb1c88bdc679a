// A check's or a group's runbook and links (docs/alerts.md, "Runbook and links"): shown
// on the status, the result and every alert; a check without its own takes its group's.
import { z } from 'zod';
import type { RunbookLink } from '../../api/schemas/index.js';

const httpUrl = (max: number) =>
  z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
    .max(max, `must be at most ${max} characters`);

export const RUNBOOK_KEYS = {
  /** An http(s) URL of the page that says what to do when the check fails. */
  runbook: httpUrl(2000).optional(),
  /** Up to 10 more links (a dashboard, the service's logs, its owners). */
  links: z
    .array(z.strictObject({ name: z.string().min(1).max(80), url: httpUrl(2000) }))
    .max(10, 'must have at most 10 links')
    .optional(),
};

interface WithRunbook {
  runbook?: string | undefined;
  links?: RunbookLink[] | undefined;
}

export interface Runbook {
  runbook: string | null;
  links: RunbookLink[];
}

/** The check's runbook and links, each taken from its group when the check has none of its own. */
export function runbookOf(
  check: WithRunbook & { group?: string | undefined },
  groups: ReadonlyArray<WithRunbook & { id: string }>,
): Runbook {
  const group = check.group === undefined ? undefined : groups.find((g) => g.id === check.group);
  return {
    runbook: check.runbook ?? group?.runbook ?? null,
    links: (check.links ?? group?.links ?? []).map((l) => ({ name: l.name, url: l.url })),
  };
}

/**
 * The extension fields of a status or a result: present only when the check (or its
 * group) has a runbook or links, so a check without them reads as before.
 */
export function runbookFields(book: Runbook): Partial<Runbook> {
  return book.runbook === null && book.links.length === 0 ? {} : { runbook: book.runbook, links: book.links };
}

// What the hands keys (b, L, y, Y and the engineer's own commands) act on, read
// from the view on top: the board's selected check, the open check with its
// newest result, or the open result with its check.
import { safeLinkUrl } from '../../domain/links.js';
import type { CommandValues } from '../../domain/user-commands.js';
import { findResult } from '../../store/detail-slice.js';
import { selectView } from '../../store/selectors.js';
import type { ConsoleState } from '../../store/state.js';
import type { CheckResult, CheckStatus } from '../../store/types.js';
import type { HandsItem } from '../../store/hands-slice.js';

export interface HandsSubject {
  where: 'board' | 'check' | 'result';
  check: CheckStatus | null;
  checkId: string;
  /** The open result, on the result view. */
  result: CheckResult | null;
  /** The newest result the console has read of the check (its check view's), if any. */
  newest: CheckResult | null;
}

export function handsSubject(s: ConsoleState): HandsSubject | null {
  const view = selectView(s);
  const where = view.name === 'dashboard' ? 'board' : view.name;
  if (where !== 'board' && where !== 'check' && where !== 'result') return null;
  const checkId = view.name === 'check' || view.name === 'result' ? view.checkId : s.selectedId;
  if (!checkId) return null;
  const result = view.name === 'result' ? (findResult(s.detail, view.resultId) ?? null) : null;
  return { where, check: s.checks[checkId] ?? null, checkId, result, newest: newestOf(s, checkId) };
}

function newestOf(s: ConsoleState, checkId: string): CheckResult | null {
  if (s.detail.checkId !== checkId) return null;
  const read = [s.detail.page, s.detail.window].flatMap((r) => (r.state === 'ok' ? r.data.data : []));
  return read.reduce<CheckResult | null>((a, r) => (!a || r.startedAt > a.startedAt ? r : a), null);
}

/** The URL the run asked: the open result's, else the newest result's; '' before the first. */
export const targetOf = (subject: HandsSubject): string =>
  (subject.result ?? subject.newest)?.request.url ?? '';

/** The runbook: the open result's, else its check's; null without one. */
export const runbookOf = (subject: HandsSubject): string | null =>
  (subject.result ?? subject.check)?.runbook ?? subject.check?.runbook ?? null;

/** The runbook, the check's links and the target, each only when its URL is http(s) and clean. */
export function linksOf(subject: HandsSubject): HandsItem[] {
  const from = subject.result ?? subject.check;
  const runbook = runbookOf(subject);
  const links = from?.links ?? subject.check?.links ?? [];
  const items = [
    ...(runbook ? [{ label: 'runbook', url: runbook }] : []),
    ...links.map((l) => ({ label: l.name, url: l.url })),
    ...(targetOf(subject) ? [{ label: 'target', url: targetOf(subject) }] : []),
  ];
  return items.flatMap(({ label, url }) => {
    const safe = safeLinkUrl(url);
    return safe ? [{ label, value: safe, act: 'open' as const }] : [];
  });
}

/** The placeholders' values for one of the engineer's commands. */
export function commandValues(s: ConsoleState, subject: HandsSubject | null): CommandValues {
  const result = subject?.result ?? subject?.newest ?? null;
  return {
    checkId: subject?.checkId ?? '',
    checkName: subject?.check?.checkName ?? result?.checkName ?? '',
    target: subject ? targetOf(subject) : '',
    location: result?.location.id ?? subject?.check?.lastExecution?.location ?? '',
    resultId: subject?.result?.id ?? '',
    baseUrl: s.session.baseUrl,
  };
}

// How far the result view scrolls: its lines (or, with the screenshot shown, the
// picture's one pane) less the room under its header. The view draws by these, and
// the scroll keys stop at the last line (before, j past the end kept counting, and
// k then did nothing for as many presses).
import type { ConsoleState } from '../../../store/state.js';
import { findResult } from '../../../store/detail-slice.js';
import { selectView } from '../../../store/selectors.js';
import type { CheckResult, CheckStatus } from '../../../store/types.js';
import { createTheme } from '../../theme.js';
import { runbookLineHeight } from '../hands/runbook-line.js';
import { resultLines } from './result-lines.js';

/** The result's own runbook and links, else its check's (a service may send them on one only). */
export const linksSource = (result: CheckResult, check: CheckStatus | undefined) =>
  runbookLineHeight(result) ? result : check;

/** Lines under the header: less the header, the cause, the screenshot's note, the runbook and the position line. */
export const resultRoom = (result: CheckResult, check: CheckStatus | undefined, height: number): number =>
  Math.max(1, height - (result.hasScreenshot ? 4 : 3) - runbookLineHeight(linksSource(result, check)));

/** The furthest the open result scrolls, in a view of `height` lines. */
export function resultScrollEnd(s: ConsoleState, height: number): number {
  const view = selectView(s);
  if (view.name !== 'result') return 0;
  const result = findResult(s.detail, view.resultId);
  if (!result) return 0;
  const picture = s.screenshot.resultId === result.id && s.screenshot.shown;
  // The count of lines does not depend on colour or links; ASCII is drawn as the view draws it.
  const lines = picture ? 1 : resultLines(result, s.cols, createTheme(s.session)).length;
  return Math.max(0, lines - resultRoom(result, s.checks[view.checkId], height));
}

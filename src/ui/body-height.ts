// The lines a view is given: the terminal's height less what the root draws
// around it (the footer or the M prompt, a paused line, an action's line, a
// note). One home for it: the root lays views out by it, and a key that scrolls a
// view stops where the view's last line is at its foot.
import type { ConsoleState } from '../store/state.js';
import { selectView } from '../store/selectors.js';
import { silencePromptLines } from './silence-prompt.js';
import { selectActionLineShown } from './views/check-actions/action-line.js';
import { selectHandsNoteHeight } from './views/hands/hands-note.js';

/** The views whose own header says PAUSED (board, dashboard, wall). */
const OWN_STATE_LINE: ReadonlySet<string> = new Set(['board', 'dashboard', 'wall']);

/** Views without the board's header still say polling is paused, on a line of its own. */
export const selectPausedLine = (s: ConsoleState): boolean =>
  s.phase === 'paused' && !OWN_STATE_LINE.has(selectView(s).name);

export const selectBodyHeight = (s: ConsoleState): number =>
  s.rows -
  Math.max(1, silencePromptLines(s)) -
  (selectPausedLine(s) ? 1 : 0) -
  (selectActionLineShown(s) ? 1 : 0) -
  selectHandsNoteHeight(s);

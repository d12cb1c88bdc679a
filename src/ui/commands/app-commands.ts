// Commands of every view and of the lists, the board, the filters, the `:`
// prompt and the ? overlay; and text typed into a text-entry scope.
import { selectPollCycle, selectView } from '../../store/selectors.js';
import type { ViewName } from '../../store/types.js';
import type { TextScope } from '../keymap.js';
import { helpLineCount, helpRoom } from '../views/help/help-overlay.js';
import { openMetrics } from './check-commands.js';
import { state, type CommandContext, type Handlers } from './context.js';

/** Views reachable from `:`. */
export const JUMP_TARGETS = [
  'board',
  'metrics',
  'dashboards',
  'channels',
  'maintenance',
  'locations',
  'wall',
] as const satisfies ViewName[];

export const APP_HANDLERS = {
  'app.quit': (ctx) => ctx.actions.quit(),
  'app.help': (ctx) => state(ctx).setFocus(state(ctx).focus === 'help' ? 'list' : 'help'),
  'app.back': (ctx) => back(ctx),
  'app.prompt': (ctx) => state(ctx).openPrompt(),
  'app.refresh': (ctx) => ctx.actions.pollNow(),
  'app.pause': (ctx) => ctx.actions.togglePause(),
  'list.down': (ctx) => move(ctx, 1),
  'list.up': (ctx) => move(ctx, -1),
  'list.pageDown': (ctx) => move(ctx, Math.max(1, ctx.pageSize - 1)),
  'list.pageUp': (ctx) => move(ctx, -Math.max(1, ctx.pageSize - 1)),
  'list.first': (ctx) => move(ctx, 'first'),
  'list.last': (ctx) => move(ctx, 'last'),
  'board.open': (ctx) => openSelected(ctx, false),
  'board.openFailed': (ctx) => openSelected(ctx, true),
  'board.metrics': (ctx) => openMetrics(ctx, state(ctx).selectedId),
  'wall.board': (ctx) => {
    const top = selectView(state(ctx));
    state(ctx).replaceView({ name: 'board', scope: top.name === 'wall' ? top.scope : null });
  },
  'board.filter': (ctx) => state(ctx).openFilter(),
  'board.nextFailing': (ctx) => state(ctx).nextFailing(),
  'board.sort': (ctx) => state(ctx).cycleSort(),
  'board.reverse': (ctx) => state(ctx).reverseSort(),
  'board.group': (ctx) => state(ctx).toggleGrouping(),
  'filter.apply': (ctx) => state(ctx).closeFilter(false),
  'filter.clear': (ctx) => state(ctx).closeFilter(true),
  'filter.erase': (ctx) => state(ctx).setFilter(state(ctx).filterText.slice(0, -1)),
  'tags.apply': (ctx) => state(ctx).closeDashboardTags(false),
  'tags.clear': (ctx) => state(ctx).closeDashboardTags(true),
  'tags.erase': (ctx) => state(ctx).setDashboardTags(state(ctx).dashboardTagsText.slice(0, -1)),
  'prompt.go': (ctx) => jump(ctx),
  'prompt.cancel': (ctx) => state(ctx).setFocus('list'),
  'prompt.erase': (ctx) => state(ctx).setPrompt(state(ctx).promptText.slice(0, -1)),
  'help.close': (ctx) => state(ctx).setFocus('list'),
  'help.down': (ctx) => state(ctx).scrollHelp(1, helpEnd(ctx)),
  'help.up': (ctx) => state(ctx).scrollHelp(-1, helpEnd(ctx)),
  'help.pageDown': (ctx) => state(ctx).scrollHelp(helpPage(ctx), helpEnd(ctx)),
  'help.pageUp': (ctx) => state(ctx).scrollHelp(-helpPage(ctx), helpEnd(ctx)),
} satisfies Handlers;

/** The list the `list.*` keys move through on each view that has one. */
const MOVES: Partial<Record<ViewName, (ctx: CommandContext, delta: number | 'first' | 'last') => void>> = {
  check: (ctx, d) => state(ctx).moveResult(d),
  dashboards: (ctx, d) => state(ctx).moveInList('dashboards', d),
  channels: (ctx, d) => state(ctx).moveChannel(d),
  maintenance: (ctx, d) => state(ctx).moveWindow(d),
};

function move(ctx: CommandContext, delta: number | 'first' | 'last') {
  const own = MOVES[selectView(state(ctx)).name];
  if (own) own(ctx, delta);
  else state(ctx).moveSelection(delta);
}

function openSelected(ctx: CommandContext, failed: boolean) {
  const id = state(ctx).selectedId;
  if (id) state(ctx).openCheck(id, failed);
}

function jump(ctx: CommandContext) {
  const s = state(ctx);
  const wanted = s.promptText.trim().toLowerCase();
  const target = JUMP_TARGETS.find((v) => v === wanted || (wanted.length > 0 && v.startsWith(wanted)));
  if (!target) {
    s.setPrompt(s.promptText, `no view "${wanted}": try ${JUMP_TARGETS.join(', ')}`);
    return;
  }
  s.setFocus('list');
  if (target === 'board') {
    while (ctx.store.getState().stack.length > 1) ctx.store.getState().popView();
    return;
  }
  if (target === 'metrics') return openMetrics(ctx, null);
  // A view already in the stack is gone back to, not stacked again (a dashboard
  // left this way ends its scope as esc would).
  if (s.stack.some((v) => v.name === target)) {
    while (selectView(ctx.store.getState()).name !== target) ctx.store.getState().popView();
    return;
  }
  s.pushView(target === 'wall' ? { name: 'wall', scope: null } : { name: target });
}

/** Text typed into the filter, the tags, the prompt or the focused field of the form. */
export function typeText(ctx: CommandContext, scope: TextScope, input: string) {
  const s = state(ctx);
  // Pasted text arrives as one string; keep only printable characters.
  // eslint-disable-next-line no-control-regex -- dropping control characters from typed text
  const clean = input.replace(/[\u0000-\u001f\u007f]/g, '');
  if (!clean) return;
  if (scope === 'form') s.formType(clean);
  else if (scope === 'pick-search') s.pickType(clean);
  else if (scope === 'prompt') s.setPrompt(s.promptText + clean);
  else if (scope === 'silence') s.silenceType(clean);
  else if (scope === 'window-extend') s.extendType(clean);
  else if (scope === 'channel-grouping') s.groupingType(clean);
  else if (scope === 'tags') s.setDashboardTags(s.dashboardTagsText + clean);
  else s.setFilter(s.filterText + clean);
}

/** Lines of help one page moves: the rows the overlay shows, less its frame. */
const helpPage = (ctx: CommandContext) => Math.max(1, state(ctx).rows - 6);
/** The furthest the help scrolls: its last line at the bottom (as HelpOverlay lays it out). */
const helpEnd = (ctx: CommandContext) =>
  Math.max(
    0,
    helpLineCount(state(ctx)) - helpRoom(state(ctx).rows - 1, selectPollCycle(state(ctx), 'long') !== null),
  );

/**
 * `esc` on a list of checks clears an applied filter first; the next one goes back
 * (from a dashboard, ending its scope): docs/console.md, "The board, a check, a run".
 */
function back(ctx: CommandContext): void {
  const s = state(ctx);
  const name = selectView(s).name;
  if ((name === 'board' || name === 'dashboard') && s.filterText !== '') s.closeFilter(true);
  else s.popView();
}

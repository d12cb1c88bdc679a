// Commands that act on a check (run now, pause or resume): on the board's
// selected check, the open check, or the open result's check. The question they
// ask is answered by the confirm keys, shared with acknowledging.
import type { CommandContext, Handlers } from './commands.js';
import { selectView } from '../store/selectors.js';

const state = (ctx: CommandContext) => ctx.store.getState();

/** The check an action names on the view on top. */
function checkOf(ctx: CommandContext): string | null {
  const view = selectView(state(ctx));
  if (view.name === 'check' || view.name === 'result') return view.checkId;
  return view.name === 'board' || view.name === 'dashboard' ? state(ctx).selectedId : null;
}

export const ACTION_HANDLERS = {
  'act.runNow': (ctx) => state(ctx).askRunNow(checkOf(ctx)),
  'act.pause': (ctx) => state(ctx).askPauseResume(checkOf(ctx)),
} satisfies Handlers;

/** y/n: the action's question when one is asked, else the acknowledgement's. */
export function answerQuestion(ctx: CommandContext, yes: boolean) {
  const s = state(ctx);
  if (s.checkAction.state === 'confirm') s.answerCheckAction(yes);
  else s.answerAcknowledge(yes);
}

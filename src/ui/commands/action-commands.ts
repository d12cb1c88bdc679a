// Commands that act on a check (run now, pause or resume, acknowledge its
// alert): on the board's selected check, the open check, or the open result's
// check. The question they ask is answered by the confirm keys.
import { actedCheckId } from './disabled.js';
import { state, type CommandContext, type Handlers } from './context.js';

export const ACTION_HANDLERS = {
  'act.runNow': (ctx) => state(ctx).askRunNow(actedCheckId(state(ctx))),
  'act.pause': (ctx) => state(ctx).askPauseResume(actedCheckId(state(ctx))),
  'check.acknowledge': (ctx) => state(ctx).askAcknowledge(),
  'confirm.yes': (ctx) => answerQuestion(ctx, true),
  'confirm.no': (ctx) => answerQuestion(ctx, false),
} satisfies Handlers;

/** y/n: the action's question when one is asked, else the acknowledgement's. */
function answerQuestion(ctx: CommandContext, yes: boolean) {
  const s = state(ctx);
  if (s.checkAction.state === 'confirm') s.answerCheckAction(yes);
  else s.answerAcknowledge(yes);
}

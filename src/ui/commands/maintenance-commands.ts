// Commands of maintenance windows (docs/maintenance.md): M on the board and the check view,
// the prompt it opens, and the keys of the :maintenance view.
import { state, type Handlers } from './context.js';

export const MAINTENANCE_HANDLERS = {
  'board.maintenance': (ctx) => state(ctx).askSilence(),
  'check.maintenance': (ctx) => state(ctx).askSilence(),
  'silence.next': (ctx) => state(ctx).silenceEnter(),
  'silence.back': (ctx) => state(ctx).silenceBack(),
  'silence.target': (ctx) => state(ctx).silenceNextTarget(),
  'silence.erase': (ctx) => state(ctx).silenceErase(),
  'maintenance.end': (ctx) => state(ctx).askEndWindow(),
  'maintenance.extend': (ctx) => state(ctx).askExtendWindow(),
  'windowConfirm.yes': (ctx) => state(ctx).answerEndWindow(true),
  'windowConfirm.no': (ctx) => state(ctx).answerEndWindow(false),
  'windowExtend.apply': (ctx) => state(ctx).extendApply(),
  'windowExtend.cancel': (ctx) => state(ctx).extendCancel(),
  'windowExtend.erase': (ctx) => state(ctx).extendErase(),
} satisfies Handlers;

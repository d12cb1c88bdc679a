// What each command of the keymap does, gathered from the files beside this
// one: exactly one handler per command of the keymap (the compiler checks both
// ways). A key runs its command through runCommand, which first asks
// disabled.ts whether the binding is offered now.
import type { CommandId } from '../keymap.js';
import { bindingOf } from '../keymap.js';
import { ACTION_HANDLERS } from './action-commands.js';
import { APP_HANDLERS } from './app-commands.js';
import { CHECK_HANDLERS } from './check-commands.js';
import { COLLECTION_HANDLERS } from './collection-commands.js';
import { state, type CommandContext, type Handler } from './context.js';
import { disabledReason, refusal } from './disabled.js';
import { MAINTENANCE_HANDLERS } from './maintenance-commands.js';
import { HANDS_HANDLERS } from './hands-commands.js';

export type { CommandContext, ConsoleActions, Handler, Handlers } from './context.js';
export { JUMP_TARGETS, typeText } from './app-commands.js';

export const HANDLERS = {
  ...APP_HANDLERS,
  ...CHECK_HANDLERS,
  ...ACTION_HANDLERS,
  ...COLLECTION_HANDLERS,
  ...MAINTENANCE_HANDLERS,
  ...HANDS_HANDLERS,
} satisfies Record<CommandId, Handler>;

/** A command as its key runs it: a binding not offered now says why instead of acting. */
export function runCommand(ctx: CommandContext, command: CommandId): void {
  const binding = bindingOf(command);
  const reason = disabledReason(binding, state(ctx));
  if (reason) state(ctx).refuseKey(refusal(binding, reason));
  else HANDLERS[command](ctx);
}

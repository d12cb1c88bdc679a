// The engineer's own commands (docs/console.md, "Your own commands"): a key of
// the config file's `commands` runs its argv in the terminal, asking first when
// it says `confirm`. Not in the keymap table (they are the user's, read at
// start): input.ts tries them after the table, and user-keys.ts refused at
// start any key the table already binds where the command would be.
import {
  commandArgv,
  commandEnv,
  optionFromValue,
  type UserCommand,
  type UserScope,
} from '../../domain/user-commands.js';
import { selectMissingRole } from '../../store/me-slice.js';
import type { ConsoleState } from '../../store/state.js';
import type { Scope } from '../keymap.js';
import { state, type CommandContext, type Handlers } from './context.js';
import { commandValues, handsSubject } from './hands-subject.js';

/** Why `command` is not offered now (a read key and `needs: operate`), or undefined. */
export function userCommandHidden(s: ConsoleState, command: UserCommand): boolean {
  return command.needs === 'operate' && selectMissingRole(s, 'operate') !== null;
}

/** The user's commands bound in these scopes and offered now. */
export function userCommandsIn(s: ConsoleState, scopes: readonly Scope[]): UserCommand[] {
  return s.userCommands.filter(
    (c) => scopes.includes(c.scope as UserScope & Scope) && !userCommandHidden(s, c),
  );
}

/** The user's command of this key where the keys are now, if one (offered now or not). */
export function matchUserCommand(s: ConsoleState, name: string, scopes: readonly Scope[]) {
  return s.userCommands.find((c) => scopes.includes(c.scope as UserScope & Scope) && c.key === name);
}

/** Runs it now, or asks first when it says `confirm`; one not offered to this key says why, as a keymap key does. */
export function pressUserCommand(ctx: CommandContext, command: UserCommand): void {
  const s = state(ctx);
  const has = command.needs ? selectMissingRole(s, command.needs) : null;
  if (has)
    return s.refuseKey(`${command.key}: ${command.name} needs an ${command.needs} key; this key is ${has}`);
  const subject = handsSubject(s);
  if (command.confirm) {
    const on = subject?.check?.checkName ?? subject?.checkId;
    const title = `Run “${command.name}”${on ? ` on ${on}` : ''}? (y/n)`;
    return s.openHandsPanel({ kind: 'ask', title, commandKey: command.key, scope: command.scope, at: 0 });
  }
  runUserCommand(ctx, command);
}

function runUserCommand(ctx: CommandContext, command: UserCommand): void {
  const s = state(ctx);
  if (!ctx.actions.runInTerminal) return s.setHandsNote(`${command.name}: no terminal to run it in`);
  const values = commandValues(s, handsSubject(s));
  const option = command.shell ? null : optionFromValue(command.run, values);
  if (option !== null)
    return s.setHandsNote(
      `${command.name}: not run: "${option}" begins with -, which ${command.run[0]} would read as an option (put -- before it in the config)`,
    );
  s.setSuspended(command.name);
  ctx.actions.runInTerminal(commandArgv(command, values), commandEnv(values), command.name);
}

/**
 * The question's command: the one of its key in the scope it was asked in (kept in the question:
 * on a board with no check selected there is no subject to say where it was).
 */
function askedCommand(s: ConsoleState): UserCommand | undefined {
  const panel = s.handsPanel;
  if (panel?.kind !== 'ask') return undefined;
  return s.userCommands.find((c) => c.key === panel.commandKey && c.scope === panel.scope);
}

export const USER_HANDLERS = {
  'ask.yes': (ctx) => {
    const command = askedCommand(state(ctx));
    state(ctx).closeHandsPanel();
    if (command) runUserCommand(ctx, command);
  },
  'ask.no': (ctx) => state(ctx).closeHandsPanel(),
} satisfies Handlers;

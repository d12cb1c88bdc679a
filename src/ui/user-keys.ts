// At start, the engineer's own commands are checked against the keymap: a key
// the console already binds where the command would be (its scope's keys and
// the global ones), a key the console cannot read, or two commands on one key
// in one scope is an error that names both, and the console does not start.
import type { UserCommand, UserScope } from '../domain/user-commands.js';
import { KEYMAP, scopeChain, type Scope } from './keymap.js';

/** The scopes a key reaches on each view a command may be bound on (see scopes.ts). */
const VIEW_SCOPES: Record<UserScope, Scope[]> = {
  board: ['board', 'list'],
  check: ['check', 'list'],
  result: ['result'],
};

// A printable character but space, or ctrl with a letter: what keyName (keymap.ts) reads.
const READABLE = /^([!-~]|ctrl\+[a-z])$/;

/** Every problem with the commands' keys, one sentence each ([] when none). */
export function userKeyProblems(commands: readonly UserCommand[]): string[] {
  return commands.flatMap((c, i) => {
    const who = `commands[${i}] ("${c.name}")`;
    if (!READABLE.test(c.key))
      return [`${who}: key "${c.key}" is not one the console can read (a character, or ctrl+ a letter)`];
    const bound = KEYMAP.find(
      (b) => scopeChain(VIEW_SCOPES[c.scope]).includes(b.scope) && b.keys.includes(c.key),
    );
    if (bound)
      return [
        `${who}: key "${c.key}" is already bound in ${bound.scope} to "${bound.help}" (${bound.command})`,
      ];
    const twin = commands.findIndex((o, j) => j < i && o.key === c.key && o.scope === c.scope);
    if (twin >= 0)
      return [
        `${who}: key "${c.key}" is already bound in ${c.scope} to commands[${twin}] ("${commands[twin]!.name}")`,
      ];
    return [];
  });
}

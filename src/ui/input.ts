// Every key of the console goes through here: a command of the keymap, text for
// a text-entry scope, or several keys that arrived as one chunk.
import type { Key } from 'ink';
import { HANDLERS, typeChunk, type CommandContext, type TextScope } from './commands.js';
import { matchCommand, TEXT_SCOPES, type Scope } from './keymap.js';

const ESCAPE_REST = /^(\[[\d;?]*[ -/]*[@-~]|O[@-~])$/;

export function handleInput(ctx: CommandContext, scopes: () => Scope[], input: string, key: Key): void {
  const command = matchCommand(input, key, scopes());
  if (command) return HANDLERS[command]?.(ctx);
  if (key.ctrl) return;
  const chars = [...input];
  // Ink hands over an escape sequence it does not know without its ESC: that is not keys typed.
  const typedKeys = !key.meta && !ESCAPE_REST.test(input);
  for (let i = 0; i < chars.length; i++) {
    const textScope = scopes().find((s) => TEXT_SCOPES.has(s)) as TextScope | undefined;
    if (textScope) return typeChunk(ctx, textScope, chars.slice(i).join(''));
    // Keys typed faster than they are read (or sent by a script) come as one chunk: each in turn.
    if (chars.length > 1 && typedKeys) handleInput(ctx, scopes, chars[i]!, keyOf(chars[i]!));
    else return;
  }
}

/** The Key Ink would report for this one character typed alone. */
export function keyOf(ch: string): Key {
  return {
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: ch === '\r' || ch === '\n',
    escape: false,
    ctrl: false,
    shift: /[A-Z]/.test(ch),
    tab: ch === '\t',
    backspace: ch === '\u007f' || ch === '\b',
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
  };
}

// Every key of the console goes through here: a command of the keymap, text for
// a text-entry scope, or several keys that arrived as one chunk (typed faster
// than they are read, pasted, or sent by a script), which act one by one.
import type { Key } from 'ink';
import { runCommand, typeText, type CommandContext } from './commands/index.js';
import { keyName, matchCommand, TEXT_SCOPES, type CommandId, type Scope, type TextScope } from './keymap.js';
import { matchUserCommand, pressUserCommand } from './commands/user-commands.js';

// Ink hands over an escape sequence it does not know without its ESC: that is not keys typed.
const ESCAPE_REST = /^(\[[\d;?]*[ -/]*[@-~]|O[@-~])$/;

const ENTER_OF: Record<TextScope, CommandId> = {
  filter: 'filter.apply',
  tags: 'tags.apply',
  prompt: 'prompt.go',
  form: 'form.submit',
  'pick-search': 'pickSearch.apply',
  silence: 'silence.next',
  'window-extend': 'windowExtend.apply',
  'channel-grouping': 'channelGrouping.apply',
};
const ERASE_OF: Record<TextScope, CommandId> = {
  filter: 'filter.erase',
  tags: 'tags.erase',
  prompt: 'prompt.erase',
  form: 'form.erase',
  'pick-search': 'pickSearch.erase',
  silence: 'silence.erase',
  'window-extend': 'windowExtend.erase',
  'channel-grouping': 'channelGrouping.erase',
};

const TAB_OF = { form: 'form.next', silence: 'silence.target' } as const satisfies Partial<
  Record<TextScope, CommandId>
>;

export function handleInput(ctx: CommandContext, scopes: () => Scope[], input: string, key: Key): void {
  const command = matchCommand(input, key, scopes());
  if (command) return runCommand(ctx, command);
  const mine = matchUserCommand(ctx.store.getState(), keyName(input, key), scopes());
  if (mine) return pressUserCommand(ctx, mine);
  if (key.ctrl) return;
  const chars = [...input];
  const typedKeys = chars.length > 1 && !key.meta && !ESCAPE_REST.test(input);
  for (let i = 0; i < chars.length;) {
    const textScope = scopes().find((s) => TEXT_SCOPES.has(s)) as TextScope | undefined;
    if (textScope) i += typeUntilEnter(ctx, textScope, chars, i);
    else if (typedKeys) {
      const stroke = strokeOf(chars[i]!);
      handleInput(ctx, scopes, stroke.input, stroke.key);
      i++;
    } else return;
  }
}

/**
 * Types chars from `from` into a text scope up to and including an Enter, which
 * acts as the key would (the keys after it go to whatever is on screen then).
 * Backspaces erase; Tabs move through the form. Returns how many chars it took.
 */
function typeUntilEnter(ctx: CommandContext, scope: TextScope, chars: string[], from: number): number {
  let text = '';
  for (let i = from; i < chars.length; i++) {
    const ch = chars[i]!;
    const enter = ch === '\r' || ch === '\n';
    const stroke = strokeOf(ch);
    const command = enter
      ? ENTER_OF[scope]
      : stroke.key.backspace
        ? ERASE_OF[scope]
        : ch === '\t' && (scope === 'form' || scope === 'silence')
          ? TAB_OF[scope]
          : stroke.key.ctrl // Ctrl-C and the form's Ctrl keys act; other control characters are dropped
            ? (matchCommand(stroke.input, stroke.key, [scope]) ?? null)
            : undefined;
    if (command === undefined) {
      text += ch;
      continue;
    }
    typeText(ctx, scope, text);
    text = '';
    if (command) runCommand(ctx, command);
    if (enter) return i - from + 1 + (ch === '\r' && chars[i + 1] === '\n' ? 1 : 0);
  }
  typeText(ctx, scope, text);
  return chars.length - from;
}

/** The input and Key Ink would report for this one character typed alone. */
export function strokeOf(ch: string): { input: string; key: Key } {
  const code = ch.charCodeAt(0);
  // Ctrl+letter is a control character (Ctrl-C is \u0003); Tab, Enter and Backspace are named keys.
  const ctrl = code >= 1 && code <= 26 && !'\b\t\n\r'.includes(ch);
  return { input: ctrl ? String.fromCharCode(code + 96) : ch, key: { ...keyOf(ch), ctrl } };
}

/** The Key Ink would report for this one character typed alone (ctrl aside: see strokeOf). */
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

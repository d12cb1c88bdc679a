// Ink hands a run of plain characters that arrived in one read to useInput as a
// single input ("jjj", "g\r"), so that a paste stays whole. Keys typed over a
// slow SSH link, or sent by tmux, arrive the same way; read as one string they
// match no binding and are silently lost. This splits such a run back into the
// keystrokes it was made of, named as Ink names single keys.
import type { Key } from 'ink';

export interface Keystroke {
  input: string;
  key: Key;
}

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** A Key with no flag set, plus the given ones. */
export const plainKey = (over: Partial<Key> = {}): Key => ({ ...NO_KEY, ...over });

/** One keystroke per character of a multi-character plain input; anything else as it came. */
export function keystrokes(input: string, key: Key): Keystroke[] {
  const chars = [...input];
  if (chars.length <= 1 || key.ctrl || key.meta || key.escape) return [{ input, key }];
  return chars.map(keystroke);
}

function keystroke(ch: string): Keystroke {
  if (ch === '\r' || ch === '\n') return { input: '', key: plainKey({ return: true }) };
  if (ch === '\t') return { input: '', key: plainKey({ tab: true }) };
  if (ch === '\b' || ch === '\u007f') return { input: '', key: plainKey({ backspace: true }) };
  const code = ch.charCodeAt(0);
  if (code >= 1 && code <= 26) {
    return { input: String.fromCharCode(code + 96), key: plainKey({ ctrl: true }) };
  }
  return { input: ch, key: plainKey({ shift: ch >= 'A' && ch <= 'Z' }) };
}

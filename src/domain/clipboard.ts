// Copying through the terminal (OSC 52): it works over SSH, and inside tmux
// when tmux has `set-clipboard on` (tmux then keeps the text as a paste buffer
// and passes it on to the terminal around it). A terminal never says whether it
// took the text, so the console says how many bytes it sent and what may block
// them. Past CLIPBOARD_CAP bytes the text is cut (at a character's start) and
// shown whole instead. What is copied has lost its control characters (pasteSafe).

import { stripControls } from './sanitize.js';

export const CLIPBOARD_CAP = 64 * 1024;

/**
 * Text from the network as it may be pasted: no control character (an ESC could end a shell's
 * bracketed paste and have the rest typed, a CR run a line) nor bidi control, tabs and newlines
 * kept, or with `oneLine` (a name, an id) made spaces. Taken out one by one, never as a sequence,
 * so a single-quoted word of a curl command keeps its quotes.
 */
export function pasteSafe(text: string, oneLine = false): string {
  const kept = stripControls(text.replace(/\r\n?/g, '\n'));
  return oneLine ? kept.replace(/[\t\n]/g, ' ') : kept;
}

export interface Clip {
  /** What is sent: the text, or its first CLIPBOARD_CAP bytes. */
  sent: string;
  bytes: number;
  cut: boolean;
}

/** The text as sent: whole, or cut to the cap without splitting a character. */
export function clipText(text: string, cap = CLIPBOARD_CAP): Clip {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= cap) return { sent: text, bytes: buffer.length, cut: false };
  let end = cap;
  // A UTF-8 continuation byte (10xxxxxx) is inside a character: step back to its start.
  while (end > 0 && (buffer[end]! & 0xc0) === 0x80) end--;
  return { sent: buffer.subarray(0, end).toString('utf8'), bytes: end, cut: true };
}

/** The OSC 52 sequence that puts `text` on the system clipboard (`c`). */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}

/** What the console says after a copy. */
export function copiedMessage(clip: Clip): string {
  const cut = clip.cut ? ` (cut at ${CLIPBOARD_CAP / 1024} KiB: the whole text is shown)` : '';
  return `copied ${clip.bytes} bytes${cut}; if nothing pastes, your terminal or tmux blocks it (tmux: set -g set-clipboard on)`;
}

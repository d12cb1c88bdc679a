// The console's frames onto the terminal. Ink renders into a stand-in stdout in
// its debug mode, which hands over each whole frame as text; we write only the
// lines that differ from the frame before, each at its own row.
//
// Why not Ink's own writer (Ink 6.8): with a frame as tall as the terminal it
// clears the screen and writes every line of every frame, even when only the
// clock moved (see BENCHMARKS.md, "The console"); with a frame one line shorter its incremental
// mode starts each update one row too low and the screen drifts. Rows written
// by absolute position cannot drift, and a frame with one changed line costs
// that line.
import { EventEmitter } from 'node:events';

const HOME_ROW = (row: number) => `\u001b[${row + 1};1H`;
// The row is erased before it is written, not after: with autowrap off, a line as wide as the
// terminal leaves the cursor on its last character, which an erase-to-end would take away.
const ERASE_LINE = '\u001b[2K';
const HIDE_CURSOR = '\u001b[?25l';
// Autowrap off while we own the screen (terminal.ts turns it back on when leaving):
// a line wider than the terminal is cut there instead of spilling onto the next row.
const NO_AUTOWRAP = '\u001b[?7l';
const CLEAR_SCREEN = '\u001b[2J';

export interface Screen {
  /** What Ink is given as stdout: it takes frames and says the terminal's size. */
  sink: NodeJS.WriteStream;
  /** Writes nothing more (the program is leaving the screen). */
  stop(): void;
  /** Writes nothing until `resume` (a command of the user's has the terminal). */
  suspend(): void;
  /** Draws the whole frame again, on a cleared screen, and goes on as before. */
  resume(): void;
}

export interface Terminal {
  columns?: number;
  rows?: number;
  write(text: string): unknown;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

/** The escape text that turns the frame `previous` into `next` on screen ('' when nothing changed). */
export function frameDiff(previous: readonly string[], next: readonly string[]): string {
  let out = '';
  for (let row = 0; row < Math.max(previous.length, next.length); row++) {
    const line = next[row] ?? '';
    if (previous[row] === line && row < next.length) continue;
    out += `${HOME_ROW(row)}${ERASE_LINE}${line}`;
  }
  return out;
}

// --ascii promises nothing outside ASCII from us: the theme picks ASCII glyphs, and
// this catches the marks views write themselves (a "—" for no data, a "·" between
// parts, "≥" in a filter, the typographic quotes of the keys' help, a chooser's ‹ ›),
// so a terminal without them never shows a replacement box.
const ASCII_FOR: Record<string, string> = {
  '’': "'",
  '‘': "'",
  '“': '"',
  '”': '"',
  '‹': '<',
  '—': '-',
  '–': '-',
  '─': '-',
  '…': '~',
  '·': '.',
  '•': '*',
  '≥': '>=',
  '≤': '<=',
  '×': 'x',
  '›': '>',
  '→': '->',
  '←': '<-',
  '↑': '^',
  '↓': 'v',
  '↗': '^',
  '↘': 'v',
  '◀': '<',
  '✖': 'X',
  '✔': '+',
  '▲': '!',
  '●': '+',
  '█': '#',
  // The ? legend draws each mark as it is drawn without --ascii beside its ASCII form.
  '▓': '+',
  '▒': ':',
  '░': '.',
  '✕': 'x',
  '✉': '@',
  '‖': 'P',
  '∅': 'S',
  '⤷': 'H',
  '◔': 'C',
};
const OUR_MARKS = new RegExp(`[${Object.keys(ASCII_FOR).join('')}]`, 'gu');

export function toAscii(line: string): string {
  return line.replace(OUR_MARKS, (ch) => ASCII_FOR[ch] ?? ch);
}

export function createScreen(terminal: Terminal, opts: { ascii?: boolean } = {}): Screen {
  let previous: string[] = [];
  let stopped = false;
  let suspended = false;
  const sink = new EventEmitter() as EventEmitter & {
    columns: number;
    rows: number;
    isTTY: false;
    write(data: string, done?: () => void): boolean;
  };
  // Not a TTY to Ink: it then leaves the cursor and synchronised output to us.
  sink.isTTY = false;
  const size = () => {
    sink.columns = terminal.columns || 80;
    sink.rows = terminal.rows || 24;
  };
  size();
  sink.write = (data, done) => {
    // Ink writes each frame whole; an empty write is its flush barrier at unmount.
    if (!stopped && !suspended && data !== '') {
      // Right after a resize Ink draws once more with the layout of the old size, before
      // the store has the new one: rows past the terminal's last would scroll the whole
      // screen, so they are never written (the frame of the new size follows at once).
      const lines = data.split('\n').slice(0, sink.rows);
      const next = opts.ascii ? lines.map(toAscii) : lines;
      const diff = frameDiff(previous, next);
      previous = next;
      if (diff) terminal.write(diff);
    }
    done?.();
    return true;
  };
  // The terminal reflows what is on screen when it resizes: wipe it, and the next frame is drawn whole.
  // Not while suspended: the main screen then holds a command's output, and resume wipes it.
  const onResize = () => {
    if (stopped) return;
    if (!suspended) terminal.write(CLEAR_SCREEN);
    previous = [];
    size();
    sink.emit('resize');
  };
  terminal.on('resize', onResize);
  terminal.write(HIDE_CURSOR + NO_AUTOWRAP);
  return {
    sink: sink as unknown as NodeJS.WriteStream,
    stop() {
      stopped = true;
      terminal.off('resize', onResize);
    },
    suspend() {
      suspended = true;
    },
    resume() {
      suspended = false;
      // The terminal may have changed size meanwhile: the resize path clears, sizes and redraws.
      terminal.write(HIDE_CURSOR + NO_AUTOWRAP);
      onResize();
    },
  };
}

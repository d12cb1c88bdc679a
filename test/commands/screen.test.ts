// Frames onto the terminal: only the lines that changed, each at its own row.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createScreen, frameDiff, toAscii } from '../../src/commands/screen.js';
import { KEYMAP } from '../../src/ui/keymap.js';
import { legendLines } from '../../src/ui/legend.js';
import { createTheme } from '../../src/ui/theme.js';
import { TITLES as HELP_TITLES } from '../../src/ui/views/help/help-overlay.js';

const at = (row: number, text: string) => `\u001b[${row};1H\u001b[2K${text}`;

describe('frameDiff', () => {
  it.each<[string, string[], string[], string]>([
    ['the first frame, whole', [], ['a', 'b'], at(1, 'a') + at(2, 'b')],
    ['nothing changed', ['a', 'b'], ['a', 'b'], ''],
    ['one line changed', ['a', 'b', 'c'], ['a', 'B', 'c'], at(2, 'B')],
    ['a shorter frame blanks the rows it left', ['a', 'b', 'c'], ['a'], at(2, '') + at(3, '')],
    ['a longer frame', ['a'], ['a', 'b'], at(2, 'b')],
    ['a line that became empty', ['a', 'b'], ['a', ''], at(2, '')],
  ])('%s', (_name, before, after, expected) => {
    expect(frameDiff(before, after)).toBe(expected);
  });
});

function fakeTerminal(columns: number, rows: number) {
  const term = Object.assign(new EventEmitter(), { columns, rows, out: [] as string[] });
  return Object.assign(term, { write: (text: string) => term.out.push(text) });
}

describe('createScreen', () => {
  it('hides the cursor, writes each frame as its changes, and stops writing when stopped', () => {
    const term = fakeTerminal(100, 30);
    const screen = createScreen(term);
    expect(screen.sink.columns).toBe(100);
    expect(screen.sink.rows).toBe(30);
    expect(screen.sink.isTTY).toBe(false);
    screen.sink.write('one\ntwo');
    screen.sink.write('one\nTWO');
    screen.sink.write('one\nTWO');
    let flushed = false;
    screen.sink.write('', () => (flushed = true));
    expect(flushed).toBe(true);
    expect(term.out).toEqual(['\u001b[?25l\u001b[?7l', at(1, 'one') + at(2, 'two'), at(2, 'TWO')]);
    screen.stop();
    screen.sink.write('gone');
    expect(term.out).toHaveLength(3);
  });

  it('on a resize clears the screen, tells Ink the new size, and draws the next frame whole', () => {
    const term = fakeTerminal(80, 24);
    const screen = createScreen(term);
    screen.sink.write('a\nb');
    let told = 0;
    (screen.sink as unknown as EventEmitter).on('resize', () => told++);
    term.columns = 120;
    term.emit('resize');
    expect(told).toBe(1);
    expect(screen.sink.columns).toBe(120);
    screen.sink.write('a\nb');
    expect(term.out.slice(-2)).toEqual(['\u001b[2J', at(1, 'a') + at(2, 'b')]);
  });

  it("leaves a command's output on screen through a resize while suspended, and draws whole on resume", () => {
    const term = fakeTerminal(80, 24);
    const screen = createScreen(term);
    screen.sink.write('a\nb');
    screen.suspend();
    const before = term.out.length;
    term.columns = 100;
    term.emit('resize');
    screen.sink.write('a\nb');
    // The main screen shows the command's output and "press a key to return": nothing written over it.
    expect(term.out.slice(before)).toEqual([]);
    expect(screen.sink.columns).toBe(100);
    screen.resume();
    screen.sink.write('a\nb');
    expect(term.out.slice(before)).toEqual(['\u001b[?25l\u001b[?7l', '\u001b[2J', at(1, 'a') + at(2, 'b')]);
  });

  it('never writes below the last row: a frame laid out for the old size cannot scroll the screen', () => {
    const term = fakeTerminal(120, 40);
    const screen = createScreen(term);
    const frame = (rows: number, text: string) => Array.from({ length: rows }, (_, i) => `${text}${i}`);
    screen.sink.write(frame(40, 'old').join('\n'));
    term.columns = 90;
    term.rows = 26;
    term.emit('resize');
    // Ink draws the old layout once more before the store knows the new size, then the new one.
    screen.sink.write(frame(40, 'old').join('\n'));
    const stale = term.out.at(-1)!;
    expect(stale).toContain(at(26, 'old25'));
    expect(stale).not.toContain('old26');
    screen.sink.write(frame(26, 'new').join('\n'));
    expect(term.out.at(-1)).toBe(
      frame(26, 'new')
        .map((l, i) => at(i + 1, l))
        .join(''),
    );
  });
});

describe('ASCII mode', () => {
  it.each([
    ['no data: —', 'no data: -'],
    ['a · b ≥ 5 ms…', 'a . b >= 5 ms~'],
    ['✖ ▲ ✔ ● ─ █', 'X ! + + - #'],
    ['plain text, \u001b[1mbold\u001b[22m', 'plain text, \u001b[1mbold\u001b[22m'],
    ['the check’s “End it now?” ‹ POST ›', `the check's "End it now?" < POST >`],
  ])('%j reads %j', (line, ascii) => {
    expect(toAscii(line)).toBe(ascii);
  });

  it('reads every key’s help, every help title and the legend of marks in ASCII (the ? overlay)', () => {
    const legend = legendLines(
      createTheme({ color: false, ascii: false }),
      createTheme({ color: false, ascii: true }),
    );
    const texts = [...KEYMAP.map((b) => b.help), ...Object.values(HELP_TITLES), ...legend];
    const left = texts.map(toAscii).filter((t) => [...t].some((ch) => ch.charCodeAt(0) >= 128));
    expect(left).toEqual([]);
  });

  it('writes only ASCII marks of ours when asked', () => {
    const term = fakeTerminal(80, 24);
    const screen = createScreen(term, { ascii: true });
    screen.sink.write('avail — · ok');
    expect(term.out.join('')).toContain('avail - . ok');
    expect([...term.out.join('')].every((ch) => ch.charCodeAt(0) < 128)).toBe(true);
  });
});

// Edits to Ink 6.8's drawing of a frame, made by scripts/bundle.js as it bundles
// (plugin `inkFrameCaches`). Each edit is [text Ink has exactly once, what replaces it];
// the build stops if Ink's code is not what these edits expect.
//
// Profiled at 10,000 checks on a 120x40 board, where a key press first cost about 37 ms
// of CPU, most of it here:
// - output.js makes its caches of each line's styled characters and widths anew for
//   every frame, so every frame tokenized every line's ANSI codes again. A frame
//   repeats nearly every line of the one before: the bundle keeps one set for the
//   life of the program, each emptied when full (styled text by the characters it
//   holds, 30,000, some 250 rows of 120; 20,000 widths). What they hold is only read,
//   so frames sharing them see the same cells.
// - output.js then lays every frame out as a grid of cells (4,800 objects at 120x40) and
//   turns each row of cells back into text. A row's text follows from the texts written
//   on it and where, so the bundle keeps the grid out: it notes each row's writes, and a
//   row written as a row was before (a press that scrolls the board moves every row, to
//   lines the frame before had at other heights) takes that row's text from a memo;
//   only a row never seen lately is made of cells, by Ink's own code. The memo holds
//   1,000 rows (a few hundred KB), emptied when full. A line longer than 80 characters
//   is a whole row, whose text the memo keeps: its styled characters (some 10 KB for a
//   board row) are not cached as well.
// - render-node-to-output.js measures every text's width again at every frame; it
//   asks measure-text.js, which keeps widths, instead.
// - squash-text-nodes.js joins a Text's nested Texts with their colours and has
//   sanitize-ansi.js tokenize the result again at every frame, to keep only its SGR
//   codes: every board row, every frame. The bundle remembers the last 1,000 texts
//   that have codes.
// - measure-text.js keeps every text it ever measured: emptied at 5,000, as the
//   clock and figures of a console left on a wall make new texts without end, and a
//   board row is one text (src/ui/widgets/table/table.tsx) of a few hundred bytes.
const BOUNDED = 'const bounded = (map, most) => (map.size >= most ? (map.clear(), map) : map);';

// Ink's texts keep to one line and sanitised SGR codes, but a write's length goes into
// the key anyway, so no two different lists of writes can share one.
const ROW_TEXT = `
const BLANK = { type: 'char', value: ' ', fullWidth: false, styles: [] };
let styledCharsHeld = 0;
const rowTexts = new Map();
let rowTextsWidth = -1;
/** A row's text from its writes, [x, line, x, line, ...] in the order Ink made them. */
const rowText = (writes, width, caches) => {
    if (writes.length === 0)
        return '';
    if (width !== rowTextsWidth) {
        rowTexts.clear();
        rowTextsWidth = width;
    }
    let key = '';
    for (let i = 0; i < writes.length; i += 2)
        key += writes[i] + ':' + writes[i + 1].length + ':' + writes[i + 1];
    let text = rowTexts.get(key);
    if (text !== undefined)
        return text;
    const currentLine = [];
    for (let x = 0; x < width; x++)
        currentLine.push(BLANK);
    for (let i = 0; i < writes.length; i += 2) {
        // A long line is a whole row, which the memo keeps as text: its cells are not kept too.
        const line = writes[i + 1];
        const characters = line.length > 80 ? styledCharsFromTokens(tokenize(line)) : caches.getStyledChars(line);
        let offsetX = writes[i];
        for (const character of characters) {
            currentLine[offsetX] = character;
            // Determine printed width using string-width to align with measurement
            const characterWidth = Math.max(1, caches.getStringWidth(character.value));
            // For multi-column characters, clear following cells to avoid stray spaces/artifacts
            if (characterWidth > 1) {
                for (let index = 1; index < characterWidth; index++) {
                    currentLine[offsetX + index] = {
                        type: 'char',
                        value: '',
                        fullWidth: false,
                        styles: character.styles,
                    };
                }
            }
            offsetX += characterWidth;
        }
    }
    // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
    text = styledCharsToString(currentLine.filter(item => item !== undefined)).trimEnd();
    bounded(rowTexts, 1_000).set(key, text);
    return text;
};
`;

export const INK_EDITS = {
  'output.js': [
    ['    caches = new OutputCaches();', '    caches = sharedCaches;'],
    [
      'this.styledChars.set(line, cached);',
      // Bounded by the characters held, not by entries: a whole row is a hundred or more.
      `if ((styledCharsHeld += cached.length) > 30_000) {
                this.styledChars.clear();
                styledCharsHeld = cached.length;
            }
            this.styledChars.set(line, cached);`,
    ],
    ['this.widths.set(text, cached);', 'bounded(this.widths, 20_000).set(text, cached);'],
    ['this.blockWidths.set(text, cached);', 'bounded(this.blockWidths, 20_000).set(text, cached);'],
    [
      `        const output = [];
        for (let y = 0; y < this.height; y++) {
            const row = [];
            for (let x = 0; x < this.width; x++) {
                row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });
            }
            output.push(row);
        }`,
      // Each row: the writes that reach it, as x and line.
      `        const output = [];
        for (let y = 0; y < this.height; y++)
            output.push([]);`,
    ],
    [
      `                    const characters = this.caches.getStyledChars(line);
                    let offsetX = x;
                    for (const character of characters) {
                        currentLine[offsetX] = character;
                        // Determine printed width using string-width to align with measurement
                        const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
                        // For multi-column characters, clear following cells to avoid stray spaces/artifacts
                        if (characterWidth > 1) {
                            for (let index = 1; index < characterWidth; index++) {
                                currentLine[offsetX + index] = {
                                    type: 'char',
                                    value: '',
                                    fullWidth: false,
                                    styles: character.styles,
                                };
                            }
                        }
                        offsetX += characterWidth;
                    }`,
      '                    currentLine.push(x, line);',
    ],
    [
      `            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })`,
      '            .map(writes => rowText(writes, this.width, this.caches))',
    ],
    [
      'export default class Output {',
      `${BOUNDED}\nconst sharedCaches = new OutputCaches();\n${ROW_TEXT}\nexport default class Output {`,
    ],
  ],
  'render-node-to-output.js': [
    ["import widestLine from 'widest-line';", "import measureText from './measure-text.js';"],
    ['const currentWidth = widestLine(text);', 'const currentWidth = measureText(text).width;'],
  ],
  'sanitize-ansi.js': [
    ['const sanitizeAnsi = (text) => {', 'const sanitizeOnce = (text) => {'],
    [
      'export default sanitizeAnsi;',
      `${BOUNDED}
const sanitized = new Map();
const sanitizeAnsi = (text) => {
    if (!hasAnsiControlCharacters(text))
        return text;
    let output = sanitized.get(text);
    if (output === undefined) {
        output = sanitizeOnce(text);
        // The same string when nothing was taken out: a row's text is kept once.
        bounded(sanitized, 1_000).set(text, output === text ? text : output);
    }
    return output;
};
export default sanitizeAnsi;`,
    ],
  ],
  'measure-text.js': [
    ['const cache = new Map();', `${BOUNDED}\nconst cache = new Map();`],
    ['cache.set(text, dimensions);', 'bounded(cache, 5_000).set(text, dimensions);'],
  ],
};

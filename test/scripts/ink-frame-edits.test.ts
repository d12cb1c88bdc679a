// The bundle's edits to Ink's output.js (scripts/ink-frame-edits.js) must draw every
// frame as Ink does: Ink's own Output and the edited one are given the same writes,
// clips, colours, wide characters and rows partly off the frame, each frame twice
// (the second from the edited one's memo), and must make the same text.
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

type Transformer = (line: string, index: number) => string;
interface OutputLike {
  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void;
  clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (options: { width: number; height: number }) => OutputLike;

const root = join(import.meta.dirname, '../..');
const inkOutput = createRequire(join(root, 'package.json'))
  .resolve('ink')
  .replace(/index\.js$/, 'output.js');
// The edited file sits in a folder of its own whose node_modules is the project's, so its imports resolve.
const dir = mkdtempSync(join(tmpdir(), 'checkwall-ink-edits-'));
symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function outputs(): Promise<[OutputClass, OutputClass]> {
  const { INK_EDITS } = (await import(pathToFileURL(join(root, 'scripts/ink-frame-edits.js')).href)) as {
    INK_EDITS: Record<string, [string, string][]>;
  };
  let code = readFileSync(inkOutput, 'utf8');
  for (const [from, to] of INK_EDITS['output.js']!) code = code.replace(from, to);
  const edited = join(dir, 'output.js');
  writeFileSync(edited, code);
  const original = (await import(pathToFileURL(inkOutput).href)) as { default: OutputClass };
  const mine = (await import(pathToFileURL(edited).href)) as { default: OutputClass };
  return [original.default, mine.default];
}

const SGR = ['', '\u001b[31m', '\u001b[1m\u001b[32m', '\u001b[7m', '\u001b[90m\u001b[7m', '\u001b[44m'];
const PIECES = ['a', 'bc', 'Check 00007', '✖', '●', '→', '日本', '😀', ' ', 'x'.repeat(30), '…'];

describe('the bundle’s edits to Ink’s output', () => {
  it('draw each frame as Ink draws it', async () => {
    const [Original, Edited] = await outputs();
    let seed = 1;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const styled = (s: string) => {
      const open = SGR[rnd(SGR.length)]!;
      return open ? `${open}${s}\u001b[0m` : s;
    };
    // A few texts, drawn again and again at other places: the memo must tell them apart.
    const pool = Array.from({ length: 12 }, () =>
      Array.from({ length: 1 + rnd(4) }, () => styled(PIECES[rnd(PIECES.length)]!)).join(''),
    );
    const text = () => pool[rnd(pool.length)]!;
    const dim: Transformer = (line) => `\u001b[2m${line}\u001b[22m`;
    for (let f = 0; f < 1_500; f++) {
      const [width, height] = [[20, 40, 120][rnd(3)]!, 1 + rnd(8)];
      const draw: ((o: OutputLike) => void)[] = [];
      for (let i = 0, n = rnd(12); i < n; i++) {
        const r = rnd(10);
        const [x, y, x2, y2] = [rnd(width + 5) - 2, rnd(height + 2) - 1, 5 + rnd(width), 2 + rnd(height)];
        const lines = Array.from({ length: 1 + rnd(3) }, text).join('\n');
        const transformers = rnd(3) === 0 ? [dim] : [];
        if (r === 0) draw.push((o) => o.clip({ x1: x, x2, y1: y, y2 }));
        else if (r === 1) draw.push((o) => o.unclip());
        else draw.push((o) => o.write(x, y, lines, { transformers }));
      }
      const frame = (C: OutputClass) => {
        const o = new C({ width, height });
        for (const d of draw) d(o);
        return o.get();
      };
      const expected = frame(Original);
      expect(frame(Edited)).toEqual(expected);
      expect(frame(Edited)).toEqual(expected);
    }
  });
});

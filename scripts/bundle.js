// Bundles the compiled program (dist/, from tsc) into dist/bundle/ for start-up speed.
// Measured with bench:console's pty harness at 10,000 checks: from process start to
// a full first board, ~1.2 s over dist/'s hundreds of ES modules (Ink alone loads
// the whole es-toolkit/compat barrel for one throttle) against ~0.7 s bundled;
// Node 20 has no module compile cache to get there otherwise.
// Split by dynamic import, as src/cli.ts loads each command lazily: `status` and
// `--help` still never load React. The native driver and the service's HTTP
// framework stay in node_modules: better-sqlite3 loads a .node file, and fastify
// is only on the service's path, as are pg (its optional native binding is a
// require esbuild cannot resolve) and playwright-core (it finds its own files
// through __dirname, which a bundle does not have).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';

const outdir = new URL('../dist/bundle/', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * Three edits to Ink 6.8's drawing of a frame, profiled at 10,000 checks on a 120x40
 * board, where a key press cost about 37 ms of CPU, most of it here:
 * - output.js makes its caches of each line's styled characters and widths anew for
 *   every frame, so every frame tokenized every line's ANSI codes again. A frame
 *   repeats nearly every line of the one before: the bundle keeps one set for the
 *   life of the program, each emptied when full (4,000 pieces of styled text, some
 *   8 frames that share nothing; 20,000 widths). What they hold is only read, so
 *   frames sharing them see the same cells. Its blank cells are one shared cell, so a
 *   row made of the same cells as the row at that height in the frame before (a key
 *   press changes two rows of a board) takes that row's text instead of turning its
 *   cells back into text, a third of what was left of a press.
 * - render-node-to-output.js measures every text's width again at every frame; it
 *   asks measure-text.js, which keeps widths, instead.
 * - measure-text.js keeps every text it ever measured: emptied at 20,000, as the
 *   clock and figures of a console left on a wall make new texts without end.
 * The build stops if Ink's code is not what these edits expect.
 */
const BOUNDED = 'const bounded = (map, most) => (map.size >= most ? (map.clear(), map) : map);';
const INK_EDITS = {
  'output.js': [
    ['    caches = new OutputCaches();', '    caches = sharedCaches;'],
    ['this.styledChars.set(line, cached);', 'bounded(this.styledChars, 4_000).set(line, cached);'],
    ['this.widths.set(text, cached);', 'bounded(this.widths, 20_000).set(text, cached);'],
    ['this.blockWidths.set(text, cached);', 'bounded(this.blockWidths, 20_000).set(text, cached);'],
    [
      `row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });`,
      'row.push(BLANK);',
    ],
    [
      `            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })`,
      `            .map((line, y) => {
            const last = lastRows[y];
            if (last && last.cells.length === line.length && last.cells.every((cell, x) => cell === line[x]))
                return last.text;
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            const text = styledCharsToString(lineWithoutEmptyItems).trimEnd();
            lastRows[y] = { cells: line, text };
            return text;
        })`,
    ],
    [
      'export default class Output {',
      `${BOUNDED}\nconst sharedCaches = new OutputCaches();\n` +
        "const BLANK = { type: 'char', value: ' ', fullWidth: false, styles: [] };\n" +
        'const lastRows = [];\n' +
        'export default class Output {',
    ],
  ],
  'render-node-to-output.js': [
    ["import widestLine from 'widest-line';", "import measureText from './measure-text.js';"],
    ['const currentWidth = widestLine(text);', 'const currentWidth = measureText(text).width;'],
  ],
  'measure-text.js': [
    ['const cache = new Map();', `${BOUNDED}\nconst cache = new Map();`],
    ['cache.set(text, dimensions);', 'bounded(cache, 20_000).set(text, dimensions);'],
  ],
};

await rm(outdir, { recursive: true, force: true });
await build({
  // Each worker thread's code is an entry of its own at the bundle's root, beside the
  // chunks, where the code that starts it looks: run-worker.js (a worker of `serve`,
  // found by server/runners/worker-pool.ts) and poll-worker.js (the console's poller,
  // found by store/poll-worker/spawn.ts).
  entryPoints: {
    cli: new URL('../dist/cli.js', import.meta.url).pathname,
    'run-worker': new URL('../dist/server/runners/run-worker.js', import.meta.url).pathname,
    'poll-worker': new URL('../dist/store/poll-worker/poll-worker.js', import.meta.url).pathname,
    // bin/checkwall.js runs this one before it loads cli.js (why: the file's header).
    'v8-flags': new URL('../dist/store/v8-flags.js', import.meta.url).pathname,
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'fastify', 'pg', 'playwright-core', 'react-devtools-core'],
  // React's entry picks its build by NODE_ENV at run time; bin/checkwall.js sets production,
  // so only the production build is bundled.
  // `checkwall --version` names the version and the commit built (src/cli.ts).
  define: {
    'process.env.NODE_ENV': '"production"',
    CHECKWALL_BUILD: JSON.stringify({ version, commit: commit() }),
  },
  // Bundled CommonJS (undici, React) calls require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __cwRequire } from 'node:module'; const require = __cwRequire(import.meta.url);",
  },
  plugins: [inkFrameCaches()],
  logLevel: 'warning',
});

function inkFrameCaches() {
  return {
    name: 'ink-frame-caches',
    setup(b) {
      b.onLoad({ filter: /[\\/]ink[\\/]build[\\/][a-z-]+\.js$/ }, async ({ path }) => {
        const edits = INK_EDITS[path.split(/[\\/]/).at(-1)];
        if (!edits) return undefined;
        let code = await readFile(path, 'utf8');
        for (const [from, to] of edits) {
          if (code.split(from).length !== 2) throw new Error(`${path} changed: no single "${from}"`);
          code = code.replace(from, to);
        }
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/** The commit built, `-dirty` when tracked files differ from it; `unknown` outside a git checkout. */
function commit() {
  const git = (...args) =>
    execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const head = git('rev-parse', '--short=12', 'HEAD').trim();
    return git('status', '--porcelain', '--untracked-files=no').trim() ? `${head}-dirty` : head;
  } catch {
    return 'unknown';
  }
}

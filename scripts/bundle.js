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
import { INK_EDITS } from './ink-frame-edits.js';

const outdir = new URL('../dist/bundle/', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await rm(outdir, { recursive: true, force: true });
await build({
  // Each worker thread's code is an entry of its own at the bundle's root, beside the
  // chunks, where the code that starts it looks: run-worker.js (a worker of `serve`,
  // found by server/runners/worker-pool.ts), sqlite-writer.js (the run queue's writes
  // to a SQLite file, found by server/storage/sqlite/write-thread.ts), metrics-worker.js
  // (the text of /metrics, found by server/metrics/metrics-thread.ts) and poll-worker.js
  // (the console's poller, found by store/poll-worker/spawn.ts).
  entryPoints: {
    cli: new URL('../dist/cli.js', import.meta.url).pathname,
    'run-worker': new URL('../dist/server/runners/run-worker.js', import.meta.url).pathname,
    'sqlite-writer': new URL('../dist/server/storage/sqlite/sqlite-writer.js', import.meta.url).pathname,
    'metrics-worker': new URL('../dist/server/metrics/metrics-worker.js', import.meta.url).pathname,
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

/** Ink 6.8's drawing of a frame, edited as it is bundled (why: ./ink-frame-edits.js). */
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

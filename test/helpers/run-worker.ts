// Tests run the service from source (TypeScript through vitest), and a worker
// thread cannot load TypeScript: each worker entry (the run worker, the SQLite
// writer) is bundled once per test process with esbuild, as scripts/bundle.js
// does for the program.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CACHE = new URL('../../node_modules/.cache/checkwall-workers/', import.meta.url).pathname;
const built = new Map<string, Promise<URL>>();

function bundled(source: string, name: string): Promise<URL> {
  let entry = built.get(source);
  if (!entry) {
    entry = (async () => {
      // Inside the checkout, so that what stays external (better-sqlite3) resolves from node_modules.
      mkdirSync(CACHE, { recursive: true });
      const outfile = join(mkdtempSync(join(CACHE, `${name}-`)), `${name}.mjs`);
      await build({
        entryPoints: [new URL(source, import.meta.url).pathname],
        outfile,
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        // The native driver stays where node_modules has it, as in the program's bundle.
        external: ['better-sqlite3'],
        banner: {
          js: "import { createRequire as __cwRequire } from 'node:module'; const require = __cwRequire(import.meta.url);",
        },
        logLevel: 'warning',
      });
      return pathToFileURL(outfile);
    })();
    built.set(source, entry);
  }
  return entry;
}

export const runWorkerEntry = (): Promise<URL> =>
  bundled('../../src/server/runners/run-worker.ts', 'run-worker');

export const sqliteWriterEntry = (): Promise<URL> =>
  bundled('../../src/server/storage/sqlite/sqlite-writer.ts', 'sqlite-writer');

export const metricsWorkerEntry = (): Promise<URL> =>
  bundled('../../src/server/metrics/metrics-worker.ts', 'metrics-worker');

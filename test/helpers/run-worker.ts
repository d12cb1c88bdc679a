// Tests run the service from source (TypeScript through vitest), and a worker
// thread cannot load TypeScript: the run worker's entry is bundled once per
// test process with esbuild, as scripts/bundle.js does for the program.
import { build } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

let built: Promise<URL> | undefined;

export function runWorkerEntry(): Promise<URL> {
  built ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), 'checkwall-run-worker-')), 'run-worker.mjs');
    await build({
      entryPoints: [new URL('../../src/server/runners/run-worker.ts', import.meta.url).pathname],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      banner: {
        js: "import { createRequire as __cwRequire } from 'node:module'; const require = __cwRequire(import.meta.url);",
      },
      logLevel: 'warning',
    });
    return pathToFileURL(outfile);
  })();
  return built;
}

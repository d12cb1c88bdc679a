// The single executable's main script (Node SEA, built by scripts/build-exe.js).
// Node runs it as CommonJS whose require() reaches only built-ins, and cannot
// import() from it; the console is ES modules with top-level await (Ink's layout
// engine), so it cannot be required either. The bundle's chunks ride along as
// SEA assets, are written once per build to a cache directory (./extract.ts),
// and are imported from there through a one-line CommonJS file among them,
// loaded by a real require() made with module.createRequire.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { getAsset } from 'node:sea';
import { pathToFileURL } from 'node:url';
import { setConsoleV8Flags } from '../store/v8-flags.js';
import { extractOnce, type SeaManifest } from './extract.js';

// Stamped by scripts/build-exe.js (esbuild `define`).
declare const CHECKWALL_SEA: SeaManifest;

/** The asset scripts/build-exe.js adds beside the bundle: `module.exports = (url) => import(url)`. */
export const LOADER = 'load.cjs';

type Cli = { main(argv: string[]): Promise<number> };

async function run(): Promise<number> {
  // React's development build leaks memory on every commit: production before React loads.
  process.env['NODE_ENV'] = 'production';
  setConsoleV8Flags(process.argv.slice(2));
  let dir: string;
  try {
    dir = extractOnce(CHECKWALL_SEA, (file) => new Uint8Array(getAsset(file))).dir;
  } catch (error) {
    process.stderr.write(`checkwall: cannot write the program's files to disk: ${String(error)}\n`);
    return 1;
  }
  const importFile = createRequire(join(dir, LOADER))(`./${LOADER}`) as (url: string) => Promise<Cli>;
  const cli = await importFile(pathToFileURL(join(dir, 'cli.js')).href);
  // In a single executable argv[1] is the executable again; the arguments follow.
  return cli.main(process.argv.slice(2));
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `checkwall: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);

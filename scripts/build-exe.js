// Builds the console as one executable that needs no Node (README.md, "One file for jump hosts"), from the
// bundle `npm run build` leaves in dist/bundle/: Node's Single Executable
// Application support (Node 20: `--experimental-sea-config`, then postject to
// put the blob into a copy of the running node binary). The bundle's files are
// SEA assets that src/sea/main.ts writes to a per-build cache directory and
// imports (why: that file's header). Prints what it built, its size and the time.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'postject';

const started = performance.now();
const root = fileURLToPath(new URL('..', import.meta.url));
const bundleDir = join(root, 'dist/bundle');
const outDir = join(root, 'dist/exe');
const work = join(outDir, 'sea');
// Node's own fuse: the blob is used only when this string's flag is flipped.
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

if (!existsSync(join(bundleDir, 'cli.js'))) {
  process.stderr.write('build-exe: dist/bundle/cli.js is missing; run `npm run build` first\n');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(work, 'assets'), { recursive: true });

const assets = collectAssets();
const manifest = { version, hash: hashOf(assets), files: Object.keys(assets) };
await build({
  entryPoints: [join(root, 'src/sea/main.ts')],
  outfile: join(work, 'main.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define: { CHECKWALL_SEA: JSON.stringify(manifest) },
  logLevel: 'warning',
});
const config = {
  main: join(work, 'main.cjs'),
  output: join(work, 'sea.blob'),
  disableExperimentalSEAWarning: true,
  assets: Object.fromEntries(Object.keys(assets).map((name) => [name, join(work, 'assets', name)])),
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], {
  stdio: 'ignore',
});

const exe = join(
  outDir,
  `checkwall-${process.platform}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`,
);
copyFileSync(process.execPath, exe);
chmodSync(exe, 0o755);
if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', exe]);
await inject(exe, 'NODE_SEA_BLOB', readFileSync(config.output), {
  sentinelFuse: FUSE,
  ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
});
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', exe]);

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(
  `build-exe: ${exe.slice(root.length)}: ${mb(statSync(exe).size)} (Node ${process.version}, ` +
    `${manifest.files.length} files, ${mb(Object.values(assets).reduce((n, b) => n + b.length, 0))} of bundle, ` +
    `build ${manifest.version}-${manifest.hash}) in ${seconds} s\n`,
);

/** dist/bundle's files, and the two small ones that make them loadable from the cache directory. */
function collectAssets() {
  const files = {};
  for (const name of readdirSync(bundleDir).sort()) files[name] = readFileSync(join(bundleDir, name));
  // The chunks are ES modules named .js: the cache directory needs its own package.json to say so.
  files['package.json'] = Buffer.from('{ "type": "module" }\n');
  // src/sea/main.ts's way to import(): a CommonJS file, loaded by a real require().
  files['load.cjs'] = Buffer.from('module.exports = (url) => import(url);\n');
  for (const [name, content] of Object.entries(files)) writeFileSync(join(work, 'assets', name), content);
  return files;
}

function hashOf(files) {
  const hash = createHash('sha256');
  for (const [name, content] of Object.entries(files))
    hash.update(`${name}\0${content.length}\0`).update(content);
  return hash.digest('hex').slice(0, 12);
}

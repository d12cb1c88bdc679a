// The single executable carries the console's bundle as SEA assets; Node can
// import ES modules only from files, so they are written out once per build:
// $XDG_CACHE_HOME/checkwall/<version>-<hash>/. A build is written into a private
// staging directory and renamed into place whole, so a directory under the final
// name is always complete, and two processes starting at once on an empty cache
// both end up on one finished copy. A cache that cannot be written (read-only,
// full, no home) falls back to a private temporary directory removed at exit.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the build stamps into the entry: the asset names, and what names the cache. */
export interface SeaManifest {
  version: string;
  /** Of every asset's name and content, so a cache of another build is never used. */
  hash: string;
  files: string[];
}

export interface Extracted {
  dir: string;
  /** True when the cache could not be written and the files live only for this process. */
  temporary: boolean;
}

/** Written last, before the rename: its content names the build the directory holds. */
const STAMP = '.checkwall-build';

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME'];
  // The XDG spec: a relative path is invalid and is ignored.
  const base = xdg?.startsWith('/') ? xdg : join(homedir(), '.cache');
  return join(base, 'checkwall');
}

export function buildName(manifest: SeaManifest): string {
  return `${manifest.version}-${manifest.hash}`;
}

export function extractOnce(
  manifest: SeaManifest,
  read: (file: string) => Uint8Array,
  env: NodeJS.ProcessEnv = process.env,
): Extracted {
  try {
    const root = cacheRoot(env);
    const dir = join(root, buildName(manifest));
    if (holds(dir, manifest)) return { dir, temporary: false };
    return { dir: writeIntoCache(root, manifest, read), temporary: false };
  } catch {
    // Read-only or full disk, no home directory: this run's own copy.
    const dir = mkdtempSync(join(tmpdir(), `checkwall-${buildName(manifest)}-`));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    writeFiles(dir, manifest, read);
    return { dir, temporary: true };
  }
}

/** True when `dir` is a finished copy of this very build. */
export function holds(dir: string, manifest: SeaManifest): boolean {
  try {
    return readFileSync(join(dir, STAMP), 'utf8') === buildName(manifest);
  } catch {
    return false;
  }
}

function writeIntoCache(root: string, manifest: SeaManifest, read: (file: string) => Uint8Array): string {
  const dir = join(root, buildName(manifest));
  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, `.staging-${buildName(manifest)}-`));
  try {
    writeFiles(staging, manifest, read);
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another process renamed its copy into place first: use that one. Anything
      // else under that name is left alone (a process may be running from it).
      if (!holds(dir, manifest)) throw error;
    }
    return dir;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function writeFiles(dir: string, manifest: SeaManifest, read: (file: string) => Uint8Array): void {
  for (const file of manifest.files) writeFileSync(join(dir, file), read(file));
  writeFileSync(join(dir, STAMP), buildName(manifest));
}

// The single executable's cache of its own files (src/sea/extract.ts), on the real
// file system: written once per build, never another build's, and a cache that
// cannot be written falls back to a private temporary directory.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheRoot, extractOnce, type SeaManifest } from '../../src/sea/extract.js';

const FILES: Record<string, string> = {
  'cli.js': 'export const x = 1;\n',
  'package.json': '{ "type": "module" }\n',
};
const manifest = (hash: string): SeaManifest => ({ version: '9.8.7', hash, files: Object.keys(FILES) });

let base: string;
let reads: string[];
const read = (file: string) => {
  reads.push(file);
  return new TextEncoder().encode(FILES[file]);
};
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'checkwall-extract-'));
  reads = [];
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('extractOnce', () => {
  it('writes the files under $XDG_CACHE_HOME/checkwall/<version>-<hash>/ once', () => {
    const env = { XDG_CACHE_HOME: base };
    const first = extractOnce(manifest('aaaaaaaaaaaa'), read, env);
    expect(first).toEqual({ dir: join(base, 'checkwall', '9.8.7-aaaaaaaaaaaa'), temporary: false });
    expect(readFileSync(join(first.dir, 'cli.js'), 'utf8')).toBe(FILES['cli.js']);
    expect(reads).toEqual(['cli.js', 'package.json']);

    reads = [];
    expect(extractOnce(manifest('aaaaaaaaaaaa'), read, env)).toEqual(first);
    expect(reads).toEqual([]);
    // No staging directory is left behind.
    expect(readdirSync(join(base, 'checkwall'))).toEqual(['9.8.7-aaaaaaaaaaaa']);
  });

  it('gives another build its own directory', () => {
    const env = { XDG_CACHE_HOME: base };
    extractOnce(manifest('aaaaaaaaaaaa'), read, env);
    const other = extractOnce(manifest('bbbbbbbbbbbb'), read, env);
    expect(other.dir).toBe(join(base, 'checkwall', '9.8.7-bbbbbbbbbbbb'));
    expect(readdirSync(join(base, 'checkwall')).sort()).toEqual(['9.8.7-aaaaaaaaaaaa', '9.8.7-bbbbbbbbbbbb']);
  });

  it('never runs from a directory under its name that it did not finish writing', () => {
    const planted = join(base, 'checkwall', '9.8.7-aaaaaaaaaaaa');
    mkdirSync(planted, { recursive: true });
    writeFileSync(join(planted, 'cli.js'), 'throw new Error("not this build");\n');
    const got = extractOnce(manifest('aaaaaaaaaaaa'), read, { XDG_CACHE_HOME: base });
    expect(got.temporary).toBe(true);
    expect(readFileSync(join(got.dir, 'cli.js'), 'utf8')).toBe(FILES['cli.js']);
    expect(readFileSync(join(planted, 'cli.js'), 'utf8')).toContain('not this build');
  });

  it('falls back to a temporary directory when the cache cannot be written', () => {
    // A path below a regular file cannot be created, whoever runs the test (root included).
    writeFileSync(join(base, 'a-file'), '');
    const got = extractOnce(manifest('aaaaaaaaaaaa'), read, { XDG_CACHE_HOME: join(base, 'a-file') });
    expect(got.temporary).toBe(true);
    expect(got.dir.startsWith(join(tmpdir(), 'checkwall-9.8.7-aaaaaaaaaaaa-'))).toBe(true);
    expect(readFileSync(join(got.dir, 'package.json'), 'utf8')).toBe(FILES['package.json']);
  });
});

describe('cacheRoot', () => {
  it('is $XDG_CACHE_HOME/checkwall, or ~/.cache/checkwall when unset or relative (the XDG rule)', () => {
    expect(cacheRoot({ XDG_CACHE_HOME: '/var/cache/me' })).toBe('/var/cache/me/checkwall');
    expect(cacheRoot({})).toBe(join(homedir(), '.cache', 'checkwall'));
    expect(cacheRoot({ XDG_CACHE_HOME: 'relative/cache' })).toBe(join(homedir(), '.cache', 'checkwall'));
  });
});

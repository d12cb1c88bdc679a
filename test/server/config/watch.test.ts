// The config file's watch (config/watch.ts) on a real file system: a save in
// place and an editor's save (a copy renamed over the file), again and again, each
// reloads; writes to other files beside it (the database's) reload nothing; a deploy
// that points a symlink on the path at another file reloads it.
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchConfig, type ConfigWatch } from '../../../src/server/config/watch.js';
import type { ServiceConfig } from '../../../src/server/config/schema.js';
import { createFakeClock } from '../../helpers/fake-clock.js';

let dir: string | undefined;
let watch: ConfigWatch | undefined;
afterEach(() => {
  watch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the config watch', () => {
  it('reloads on a save in place and on each editor save that renames a copy over the file; writes to other files beside it reload nothing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'checkwall-watch-'));
    const path = join(dir, 'checkwall.json');
    writeFileSync(path, '{"v":0}');
    const loaded: string[] = [];
    const load = vi.fn(() => {
      loaded.push('load');
      return {} as ServiceConfig;
    });
    const applied: number[] = [];
    const warn = vi.fn();
    watch = watchConfig({
      path,
      load,
      apply: () => {
        applied.push(applied.length + 1);
        return Promise.resolve({ added: 0, changed: 1, removed: 0, waiting: [] });
      },
      log: () => undefined,
      warn,
    });
    const saves = async (n: number) => vi.waitFor(() => expect(applied).toHaveLength(n), { timeout: 3_000 });

    writeFileSync(path, '{"v":1}');
    await saves(1);
    for (const v of [2, 3, 4]) {
      const copy = join(dir, `.checkwall.json.${v}~`);
      writeFileSync(copy, `{"v":${v}}`);
      renameSync(copy, path);
      await saves(v);
    }
    // The database beside the config writes often: none of it is the config's business.
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, 'checkwall.db-wal'), `page ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(applied).toHaveLength(4);
    expect(load).toHaveBeenCalledTimes(4);
    expect(warn).not.toHaveBeenCalled();
  });

  it('follows a symlink on the path to the file a deploy points it at, and watches that file from then on', async () => {
    dir = mkdtempSync(join(tmpdir(), 'checkwall-watch-'));
    for (const release of ['r1', 'r2']) {
      mkdirSync(join(dir, release));
      writeFileSync(join(dir, release, 'checkwall.json'), `{"release":"${release}"}`);
    }
    symlinkSync('r1', join(dir, 'current'));
    const clock = createFakeClock();
    const applied: number[] = [];
    const warn = vi.fn();
    watch = watchConfig({
      path: join(dir, 'current', 'checkwall.json'),
      load: () => ({}) as ServiceConfig,
      apply: () => {
        applied.push(applied.length + 1);
        return Promise.resolve({ added: 0, changed: 1, removed: 0, waiting: [] });
      },
      log: () => undefined,
      warn,
      clock,
    });
    const reloads = async (n: number) =>
      vi.waitFor(() => expect(applied).toHaveLength(n), { timeout: 3_000 });

    // As `ln -sfn r2 current` does it: a new link renamed over the old, r1's file untouched.
    symlinkSync('r2', join(dir, 'current.new'));
    renameSync(join(dir, 'current.new'), join(dir, 'current'));
    await clock.advance(4_999);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(applied).toEqual([]);
    await clock.advance(1);
    await reloads(1);
    // The file it leads to now is the one watched: a save to r2 reloads, one to r1 does not.
    writeFileSync(join(dir, 'r2', 'checkwall.json'), '{"release":"r2","v":2}');
    await reloads(2);
    writeFileSync(join(dir, 'r1', 'checkwall.json'), '{"release":"r1","v":2}');
    await clock.advance(5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(applied).toHaveLength(2);
    expect(warn).not.toHaveBeenCalled();
  });

  it('looks at nothing on a timer for a path with no symlink on it', () => {
    dir = mkdtempSync(join(tmpdir(), 'checkwall-watch-'));
    const path = join(dir, 'checkwall.json');
    writeFileSync(path, '{}');
    const clock = createFakeClock();
    const apply = vi.fn();
    watch = watchConfig({
      path,
      load: () => ({}) as ServiceConfig,
      apply,
      log: vi.fn(),
      warn: vi.fn(),
      clock,
    });
    expect(clock.pending()).toBe(0);
  });
});

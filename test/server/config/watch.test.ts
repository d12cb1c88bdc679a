// The config file's watch (config/watch.ts) on a real file system: a save in
// place and an editor's save (a copy renamed over the file), again and again, each
// reloads; writes to other files beside it (the database's) reload nothing.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchConfig, type ConfigWatch } from '../../../src/server/config/watch.js';
import type { ServiceConfig } from '../../../src/server/config/schema.js';

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
        return Promise.resolve({ added: 0, changed: 1, removed: 0 } as never);
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
});

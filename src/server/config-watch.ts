// Reloads the service's config file on SIGHUP and when the file changes: the
// new config runs at once; an invalid one is refused with the message it
// would get at start, and the running config stays.
import { watch, readFileSync, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ServiceConfig } from './config-schema.js';
import type { ReloadSummary } from './service.js';

export interface ConfigWatchOptions {
  path: string;
  /** Reads and validates the file as at start; throws with the message to show. */
  load(): ServiceConfig;
  apply(config: ServiceConfig): Promise<ReloadSummary>;
  log(line: string): void;
  warn(line: string): void;
}

// Editors save in bursts (truncate, write, rename): wait for the file to settle.
const SETTLE_MS = 200;

export function watchConfig(opts: ConfigWatchOptions): { close(): void } {
  let applied = readText(opts.path);
  let timer: NodeJS.Timeout | undefined;
  // One reload at a time, in the order asked.
  let reloading: Promise<void> = Promise.resolve();

  function reload(why: string) {
    reloading = reloading.then(() => apply(why));
  }

  async function apply(why: string) {
    try {
      const text = readText(opts.path);
      const summary = await opts.apply(opts.load());
      applied = text;
      opts.log(`config reloaded (${why}): ${describe(summary)}`);
    } catch (error) {
      opts.warn(`config not reloaded (${why}); the previous one keeps running: ${(error as Error).message}`);
    }
  }

  const onSignal = () => reload('SIGHUP');
  process.on('SIGHUP', onSignal);
  // The directory, not the file: an editor's save replaces the file, and a watch on it would go deaf.
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(opts.path), (_event, name) => {
      if (name !== null && name !== basename(opts.path)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const text = readText(opts.path);
        if (text !== undefined && text !== applied) reload(`${basename(opts.path)} changed`);
      }, SETTLE_MS);
    });
  } catch (error) {
    opts.warn(`cannot watch ${opts.path} (${(error as Error).message}); SIGHUP still reloads it`);
  }
  return {
    close() {
      process.off('SIGHUP', onSignal);
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // mid-save, or gone: load() says why if it is asked to
  }
}

function describe(s: ReloadSummary): string {
  const parts = [
    s.added && `${s.added} check${s.added === 1 ? '' : 's'} added`,
    s.changed && `${s.changed} changed`,
    s.removed && `${s.removed} removed`,
  ].filter(Boolean);
  return parts.length === 0 ? 'no check changed' : parts.join(', ');
}

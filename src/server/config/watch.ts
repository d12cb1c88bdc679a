// Reloads the service's config file on SIGHUP and when the file changes: the
// new config runs at once; an invalid one is refused with the message it
// would get at start, and the running config stays. Several instances on one
// PostgreSQL database read one config (a shared file, or the same file on each
// host): a reload here is announced to them (`announce`), and an announcement
// from another instance makes this one read its file again (`fromPeer`).
import { createHash } from 'node:crypto';
import { watch, readFileSync, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ServiceConfig } from './schema.js';
import type { ReloadSummary } from './diff.js';

export interface ConfigWatchOptions {
  path: string;
  /** Reads and validates the file as at start; throws with the message to show. */
  load(): ServiceConfig;
  apply(config: ServiceConfig): Promise<ReloadSummary>;
  log(line: string): void;
  warn(line: string): void;
  /** Tells the other instances a reload happened here (the file's digest); absent on one machine. */
  announce?(version: string): Promise<void>;
}

export interface ConfigWatch {
  /** Another instance reloaded: read the file again, and apply it if it changed. */
  fromPeer(version: string): void;
  close(): void;
}

// Editors save in bursts (truncate, write, rename): wait for the file to settle.
const SETTLE_MS = 200;

export function watchConfig(opts: ConfigWatchOptions): ConfigWatch {
  let applied = readText(opts.path);
  let timer: NodeJS.Timeout | undefined;
  // One reload at a time, in the order asked.
  let reloading: Promise<void> = Promise.resolve();

  function reload(why: string, peer = false) {
    reloading = reloading.then(() => apply(why, peer));
  }

  async function apply(why: string, peer: boolean) {
    const text = readText(opts.path);
    // What this instance runs already (it saw the shared file change itself): nothing to do.
    if (peer && text === applied) return;
    try {
      const summary = await opts.apply(opts.load());
      applied = text;
      opts.log(`config reloaded (${why}): ${describe(summary)}`);
    } catch (error) {
      opts.warn(`config not reloaded (${why}); the previous one keeps running: ${(error as Error).message}`);
      return;
    }
    if (!peer && text !== undefined)
      await opts.announce?.(digest(text)).catch((error: unknown) => {
        opts.warn(`cannot tell the other instances of the reload: ${(error as Error).message}`);
      });
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
    fromPeer: (version) => reload(`another instance reloaded ${version}`, true),
    close() {
      process.off('SIGHUP', onSignal);
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

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

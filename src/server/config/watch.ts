// Reloads the service's config file on SIGHUP and when the file changes: the
// new config runs at once; an invalid one is refused with the message it
// would get at start, and the running config stays. Several instances on one
// PostgreSQL database read one config (a shared file, or the same file on each
// host): a reload here is announced to them (`announce`), and an announcement
// from another instance makes this one read its file again (`fromPeer`).
import { createHash } from 'node:crypto';
import { watch, readFileSync, realpathSync, type FSWatcher } from 'node:fs';
import { basename, resolve } from 'node:path';
import { systemClock, type Clock } from '../../domain/clock.js';
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
  /** The clock of the look at where a path through a symlink leads (tests move it). */
  clock?: Clock;
}

export interface ConfigWatch {
  /** Another instance reloaded: read the file again, and apply it if it changed. */
  fromPeer(version: string): void;
  close(): void;
}

// Editors save in bursts (truncate, write, rename): wait for the file to settle.
const SETTLE_MS = 200;
// How often a path through a symlink is followed again (watchFile).
const LINK_LOOK_MS = 5_000;

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
      if (summary.waiting.length > 0)
        opts.warn(`config reloaded, but these changes are not applied: ${summary.waiting.join('; ')}`);
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
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const text = readText(opts.path);
      if (text !== undefined && text !== applied) reload(`${basename(opts.path)} changed`);
    }, SETTLE_MS);
  };
  const watcher = watchFile(opts.path, opts.clock ?? systemClock, changed, (why) =>
    opts.warn(`cannot watch ${opts.path} (${why}); SIGHUP still reloads it`),
  );
  return {
    fromPeer: (version) => reload(`another instance reloaded ${version}`, true),
    close() {
      process.off('SIGHUP', onSignal);
      clearTimeout(timer);
      watcher.close();
    },
  };
}

/**
 * Tells of changes to the file at `path`, and goes on telling after an editor's
 * save replaces it (write a copy, rename it over): a watch is on a file, not a
 * name, so on a rename it is made again on whatever the name is by then. The
 * file, not its directory: the database often lives beside the config, and a
 * watch on the directory woke the service for each write of its WAL, some 20
 * a run (BENCHMARKS.md, "bench:threads, offsets on a quarter-second grid").
 *
 * A path that reaches its file through a symlink (a release directory swapped under
 * `current`, a Kubernetes ConfigMap's `..data`) can be pointed at another file while the
 * watched one stays as it was, which no watch on that file tells: where the path leads is
 * looked at every LINK_LOOK_MS (on the clock's grid, with the service's other jobs), and a
 * new file there is watched and read. A path with no symlink on it at start is not looked at.
 */
function watchFile(path: string, clock: Clock, changed: () => void, cannot: (why: string) => void) {
  let watcher: FSWatcher | undefined;
  let again: NodeJS.Timeout | undefined;
  let closed = false;
  let waitMs = SETTLE_MS;
  const arm = (first: boolean) => {
    if (closed) return;
    try {
      const current: FSWatcher = watch(path, (event) => {
        // A closed watch's events still queued: the new one tells from here on.
        if (current !== watcher) return;
        changed();
        if (event !== 'rename') return;
        current.close();
        watcher = undefined;
        clearTimeout(again);
        again = setTimeout(() => arm(false), SETTLE_MS);
      });
      watcher = current;
      current.on('error', (error) => cannot(error.message));
      waitMs = SETTLE_MS;
      // What was saved while no watch was on the name is read now.
      if (!first) changed();
    } catch (error) {
      if (first) return cannot((error as Error).message);
      // Gone mid-save, or removed: looked for again, less often the longer it stays away.
      waitMs = Math.min(waitMs * 2, 5_000);
      again = setTimeout(() => arm(false), waitMs);
    }
  };
  arm(true);
  let leadsTo = realPath(path);
  const look =
    leadsTo !== undefined && leadsTo !== resolve(path)
      ? clock
          .setInterval(() => {
            const now = realPath(path);
            if (now === undefined || now === leadsTo) return;
            leadsTo = now;
            watcher?.close();
            watcher = undefined;
            clearTimeout(again);
            arm(false);
          }, LINK_LOOK_MS)
          .unref()
      : undefined;
  return {
    close() {
      closed = true;
      clearTimeout(again);
      clock.clearInterval(look);
      watcher?.close();
    },
  };
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined; // mid-swap, or gone: looked at again next time
  }
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

// Starting and stopping one headless Chromium. It listens for DevTools on a
// port of its choosing and writes that port to DevToolsActivePort in its
// (fresh, temporary) profile directory, which is how we find it.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { hostname, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

// The background-networking flags matter: on a closed network Chromium's own
// connections (updates, sync, field trials) are refused and it stalls on them.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--remote-debugging-port=0',
  '--window-size=1280,800',
];

/** The browser executable: CHECKWALL_CHROMIUM, or Debian's /usr/bin/chromium. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env['CHECKWALL_CHROMIUM'] || DEFAULT_CHROMIUM;
}

/** Why browser checks cannot run here, or null when the browser is installed. */
export function browserMissing(path: string = chromiumPath()): string | null {
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return `no browser at ${path}: install Chromium (apt-get install -y chromium) or set CHECKWALL_CHROMIUM`;
  }
}

export interface Chromium {
  pid: number;
  /** The temporary profile directory; it appears on every one of its processes' command lines. */
  profile: string;
  /** The browser-wide DevTools WebSocket URL. */
  wsUrl: string;
  /** Resolves when the process and every child holding its stderr have exited. */
  exited: Promise<void>;
  readonly running: boolean;
  kill(): void;
  /** Removes the temporary profile; call after `exited`. */
  removeProfile(): Promise<void>;
}

const READY_POLL_MS = 25;
const PROFILE_PREFIX = 'checkwall-chromium-';
/** A profile without Chromium's lock is someone's fresh one for this long. */
const FRESH_PROFILE_MS = 60_000;
const BROWSER_NICE = 10;
const SETPRIV = '/usr/bin/setpriv';

/**
 * The browser is background work: it runs at nice 10, below the service and
 * the console that may share its process. Run as root, Chromium lifts its main
 * and GPU threads to nice -8, ahead of both (seen here), so there it runs
 * without CAP_SYS_NICE (util-linux's setpriv, present on every Debian).
 */
function humbled(executable: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0 || !existsSync(SETPRIV)) return [executable, args];
  return [SETPRIV, ['--bounding-set', '-sys_nice', executable, ...args]];
}

export async function launchChromium(executable: string, timeoutMs: number): Promise<Chromium> {
  void sweepStaleProfiles().catch(() => undefined);
  const profile = await mkdtemp(join(tmpdir(), PROFILE_PREFIX));
  const [command, args] = humbled(executable, [...FLAGS, `--user-data-dir=${profile}`, 'about:blank']);
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    if (child.pid !== undefined) setPriority(child.pid, BROWSER_NICE);
  } catch {
    // Already gone: waitForPort reports why.
  }
  let stderr = '';
  // Always drained: a full pipe would block Chromium. The tail explains a failed start.
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  // A service that exits without closing (process.exit on a signal) takes its browser with it.
  const killOnExit = () => {
    child.kill('SIGKILL');
    try {
      rmSync(profile, { recursive: true, force: true });
    } catch {
      // Its children may still be writing; the next launch sweeps what is left.
    }
  };
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  try {
    const wsUrl = await waitForPort(child, profile, timeoutMs, spawnError, () => stderr);
    return {
      pid: child.pid ?? 0,
      profile,
      wsUrl,
      exited,
      get running() {
        return child.exitCode === null && child.signalCode === null;
      },
      kill: () => void child.kill('SIGKILL'),
      removeProfile: () => rm(profile, { recursive: true, force: true }),
    };
  } catch (error) {
    child.kill('SIGKILL');
    await Promise.race([exited, spawnError]);
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}

async function waitForPort(
  child: ChildProcess,
  profile: string,
  timeoutMs: number,
  spawnError: Promise<Error>,
  stderr: () => string,
): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  let failed: Error | undefined;
  void spawnError.then((e) => (failed = e));
  while (performance.now() < deadline) {
    if (failed) throw new Error(`cannot start the browser: ${failed.message}`);
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `chromium exited (${child.exitCode ?? child.signalCode}) before it was ready: ${tail(stderr())}`,
      );
    const text = await readFile(join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '');
    const [port, path] = text.split('\n');
    if (port && path) return `ws://127.0.0.1:${port}${path}`;
    await new Promise((r) => setTimeout(r, READY_POLL_MS));
  }
  throw new Error(`chromium was not ready within ${timeoutMs} ms: ${tail(stderr())}`);
}

const tail = (text: string) => text.trim().split('\n').slice(-3).join(' | ') || '(no output)';

/**
 * Removes the profiles of browsers that are gone: a service killed outright
 * leaves its profile behind, and one that exits on a signal can race the
 * writes of Chromium's own children. A live browser's profile holds
 * SingletonLock, a link to "host-pid".
 */
export async function sweepStaleProfiles(base: string = tmpdir(), now: number = Date.now()): Promise<void> {
  const names = (await readdir(base)).filter((n) => n.startsWith(PROFILE_PREFIX));
  for (const name of names) {
    const dir = join(base, name);
    if (!(await inUse(dir, now))) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function inUse(dir: string, now: number): Promise<boolean> {
  const lock = await readlink(join(dir, 'SingletonLock')).catch(() => null);
  if (lock === null) {
    const info = await stat(dir).catch(() => null);
    return info !== null && now - info.mtimeMs < FRESH_PROFILE_MS;
  }
  const cut = lock.lastIndexOf('-');
  if (lock.slice(0, cut) !== hostname()) return true;
  try {
    process.kill(Number(lock.slice(cut + 1)), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

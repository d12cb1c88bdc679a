// Starting one headless Chromium through playwright-core: the machine's own
// browser (no download), over a pipe, so the browser's life is tied to ours —
// when the service dies, even by SIGKILL, the pipe closes and Chromium exits.
import { accessSync, constants, existsSync, rmSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

// The background-networking flags matter: on a closed network Chromium's own
// connections (updates, sync, field trials) are refused and it stalls on them.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
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

export interface LaunchedBrowser {
  browser: Browser;
  /** The browser process (the wrapper execs into it, keeping its pid). */
  pid: number;
  /** Playwright's temporary profile; it appears on every one of the browser's command lines. */
  profile: string;
  /** Removes our launcher directory; call once the browser is gone. */
  cleanUp(): Promise<void>;
}

const LAUNCHER_PREFIX = 'checkwall-chromium-';
const PROFILE_PREFIX = 'playwright_chromiumdev_profile-';
/** A directory without an owner is someone's fresh one for this long. */
const FRESH_MS = 60_000;
const BROWSER_NICE = 10;
const SETPRIV = '/usr/bin/setpriv';

/**
 * The browser is background work: it runs at nice 10, below the service and
 * the console that may share its process. Run as root, Chromium lifts its main
 * and GPU threads to nice -8, ahead of both (seen here), so there it runs
 * without CAP_SYS_NICE (util-linux's setpriv, present on every Debian).
 * Playwright spawns one executable, so a two-line wrapper does both; it
 * writes its pid first, and `exec` keeps that pid for Chromium.
 */
function wrapperScript(executable: string, dir: string): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const humble =
    process.getuid?.() === 0 && existsSync(SETPRIV) ? `${SETPRIV} --bounding-set -sys_nice ` : '';
  return `#!/bin/sh\necho $$ > ${quote(join(dir, 'pid'))}\nexec nice -n ${BROWSER_NICE} ${humble}${quote(executable)} "$@"\n`;
}

export async function launchBrowser(executable: string, timeoutMs: number): Promise<LaunchedBrowser> {
  void sweepStaleProfiles().catch(() => undefined);
  const dir = await mkdtemp(join(tmpdir(), LAUNCHER_PREFIX));
  await writeFile(join(dir, 'owner'), String(process.pid));
  const wrapper = join(dir, 'chromium');
  await writeFile(wrapper, wrapperScript(executable, dir));
  await chmod(wrapper, 0o700);
  // A service that exits without closing (process.exit on a signal) leaves no launcher behind.
  const removeOnExit = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeOnExit);
  const cleanUp = async () => {
    process.off('exit', removeOnExit);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // Loaded on the first browser run: it costs more to load than the rest of the service,
    // and a service without browser checks never needs it.
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: wrapper,
      args: FLAGS,
      timeout: timeoutMs,
      // The service owns its signals (SIGHUP reloads the config); the pipe is what ties the browser to us.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const pid = Number(await readFile(join(dir, 'pid'), 'utf8'));
    return { browser, pid, profile: await profileOf(pid), cleanUp };
  } catch (error) {
    await cleanUp();
    throw new Error(`cannot start the browser: ${firstLine((error as Error).message)}`);
  }
}

async function profileOf(pid: number): Promise<string> {
  const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
  return argv.find((a) => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length) ?? '';
}

const firstLine = (text: string) => text.split('\n')[0] ?? text;

/**
 * Removes what browsers that are gone left behind: a service killed outright
 * cannot clean up, though its browser exits with it. A live browser's profile
 * holds SingletonLock, a link to "host-pid"; our launcher directory names its
 * owner's pid.
 */
export async function sweepStaleProfiles(base: string = tmpdir(), now: number = Date.now()): Promise<void> {
  for (const name of await readdir(base)) {
    const dir = join(base, name);
    const owner = name.startsWith(PROFILE_PREFIX)
      ? await lockOwner(dir)
      : name.startsWith(LAUNCHER_PREFIX)
        ? await readFile(join(dir, 'owner'), 'utf8').then(Number, () => null)
        : undefined;
    if (owner === undefined) continue;
    if (!(await inUse(dir, owner, now)))
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The pid in a profile's SingletonLock; NaN when it names another host; null without one. */
async function lockOwner(dir: string): Promise<number | null> {
  const lock = await readlink(join(dir, 'SingletonLock')).catch(() => null);
  if (lock === null) return null;
  const cut = lock.lastIndexOf('-');
  return lock.slice(0, cut) === hostname() ? Number(lock.slice(cut + 1)) : Number.NaN;
}

async function inUse(dir: string, owner: number | null, now: number): Promise<boolean> {
  if (owner === null) {
    const info = await stat(dir).catch(() => null);
    return info !== null && now - info.mtimeMs < FRESH_MS;
  }
  if (!Number.isInteger(owner) || owner <= 0) return true; // another host's, or unreadable: not ours to judge
  try {
    process.kill(owner, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

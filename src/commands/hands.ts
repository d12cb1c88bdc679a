// The console's hands on the machine it runs on: copy through the terminal
// (OSC 52, which also crosses SSH and, with `set-clipboard on`, tmux), open a
// link in a browser only where a display is (over SSH `xdg-open` would start a
// text browser inside the console) and the browser command is found, and run the engineer's own commands in the
// terminal with the console's screen given up until a key brings it back.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { osc52 } from '../domain/clipboard.js';
import { safeLinkUrl } from '../domain/links.js';
import type { ConsoleActions } from '../ui/commands/index.js';
import type { Screen } from './screen.js';
import type { TerminalGuard } from './terminal.js';

type HandsActions = Required<Pick<ConsoleActions, 'copy' | 'open' | 'runInTerminal' | 'resumeScreen'>>;

/**
 * The executable `command` names: a path as it is, else the first file of that name in PATH's
 * directories; null when there is none (a server reached with `ssh -X` has a DISPLAY and
 * seldom an xdg-open, and a spawn that cannot start says so only after b has said "opening").
 */
export function findExecutable(command: string, env: NodeJS.ProcessEnv): string | null {
  const dirs = (env['PATH'] ?? '').split(delimiter).filter(Boolean);
  const files = command.includes('/') ? [command] : dirs.map((dir) => join(dir, command));
  return (
    files.find((file) => {
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    }) ?? null
  );
}

/** Where a browser can be opened, and with what: $BROWSER, `open` on macOS, else xdg-open. */
export function browserCommand(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  const display = platform === 'darwin' || Boolean(env['DISPLAY']) || Boolean(env['WAYLAND_DISPLAY']);
  if (!display) return null;
  return env['BROWSER'] || (platform === 'darwin' ? 'open' : 'xdg-open');
}

/**
 * Runs argv on the terminal and says how it ended. Synchronous on purpose: while it runs the
 * console reads no keys, so every key is the command's. An argv Node refuses before spawning (an
 * empty program: `{target}` before a first run; a NUL) throws, and is said as one that cannot start.
 */
function runSync(argv: string[], env: NodeJS.ProcessEnv): string {
  try {
    const run = spawnSync(argv[0]!, argv.slice(1), { stdio: 'inherit', env });
    return run.error ? `could not start: ${run.error.message}` : `exited ${run.status ?? run.signal}`;
  } catch (error) {
    return `could not start: ${(error as Error).message}`;
  }
}

export interface HandsWiring {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  screen: Screen;
  terminal: TerminalGuard;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

export function createHands(w: HandsWiring): HandsActions {
  const env = w.env ?? process.env;
  const command = browserCommand(env, w.platform ?? process.platform);
  const browser = command && findExecutable(command, env);
  return {
    copy: (text) => void w.stdout.write(osc52(text)),
    open(url) {
      const safe = safeLinkUrl(url);
      if (!browser || !safe) return false;
      // Detached, its output ignored: a browser's chatter must not land on the console's screen.
      const child = spawn(browser, [safe], { detached: true, stdio: 'ignore', env });
      child.on('error', () => undefined);
      child.unref();
      return true;
    },
    runInTerminal(argv, vars, name) {
      w.screen.suspend();
      w.terminal.leave();
      if (w.stdin.isTTY) w.stdin.setRawMode(false);
      const how = runSync(argv, { ...env, ...vars });
      w.stdout.write(`\n[checkwall: ${name} ${how}; press a key to return to the console]`);
      if (w.stdin.isTTY) w.stdin.setRawMode(true);
      return how;
    },
    resumeScreen() {
      w.terminal.enter();
      w.screen.resume();
    },
  };
}

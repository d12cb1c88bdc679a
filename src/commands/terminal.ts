// The terminal around the console: the alternate screen on start, and the
// screen and cursor given back on every way out (exit, crash, signals).
import { writeSync } from 'node:fs';

const ENTER = '\u001b[?1049h\u001b[H';
// Cursor shown, autowrap back on (the screen writer turns it off), main screen back.
const LEAVE = '\u001b[?25h\u001b[?7h\u001b[?1049l';

export interface TerminalGuard {
  restore(): void;
  /**
   * The main screen back for a while (a command of the user's runs), the guards kept; until
   * `enter`, Ctrl-C and Ctrl-\ are the command's, as `system(3)` has them.
   */
  leave(): void;
  /** The alternate screen again after `leave`. */
  enter(): void;
}

/** The part of `process` the guard listens on and ends (tests give a stand-in). */
export type GuardedProcess = Pick<
  NodeJS.Process,
  'once' | 'on' | 'off' | 'exit' | 'kill' | 'removeAllListeners' | 'pid' | 'stderr'
>;

export function enterAlternateScreen(
  stdout: NodeJS.WriteStream = process.stdout,
  proc: GuardedProcess = process,
): TerminalGuard {
  if (!stdout.isTTY) return { restore: () => undefined, leave: () => undefined, enter: () => undefined };
  let restored = false;
  // In cooked mode Ctrl-C and Ctrl-\ signal the terminal's whole foreground group: the user's
  // command and the console. The console's SIGINT is heard only once the command has ended (its
  // run is synchronous), so it is ignored until `enter`, not just while the command runs.
  let away = false;
  const ignore = () => undefined;
  const restore = () => {
    if (restored) return;
    restored = true;
    stdout.write(LEAVE);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGINT' && away) return;
    if (signal === 'SIGHUP' && !givenBack(stdout)) return dieOfHangUp(proc);
    restore();
    proc.exit(signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143);
  };
  /** The screen given back at once; false when the terminal is gone (the write fails). */
  const givenBack = (out: NodeJS.WriteStream) => {
    try {
      writeSync((out as { fd?: number }).fd ?? 1, LEAVE);
      restored = true;
      return true;
    } catch {
      return false;
    }
  };
  const onCrash = (error: unknown) => {
    if (terminalGone(error)) return dieOfHangUp(proc);
    restore();
    proc.stderr.write(
      `checkwall crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    proc.exit(1);
  };
  stdout.write(ENTER);
  // A frame written after the terminal hung up, before its SIGHUP is heard, fails with EIO.
  stdout.on('error', onCrash);
  proc.once('exit', restore);
  proc.once('SIGTERM', onSignal);
  proc.once('SIGHUP', onSignal);
  // `on`, not `once`: one ignored while away must not leave the next to Node's default (exit).
  proc.on('SIGINT', onSignal);
  proc.once('uncaughtException', onCrash);
  proc.once('unhandledRejection', onCrash);
  const leave = () => {
    if (!away) proc.on('SIGQUIT', ignore); // a listener keeps SIGQUIT's default (a core dump) off
    away = true;
    stdout.write(LEAVE);
  };
  const enter = () => {
    proc.off('SIGQUIT', ignore);
    away = false;
    stdout.write(ENTER);
  };
  return { restore, leave, enter };
}

/** The error of a write to a terminal that hung up (Linux says EIO; some systems ENXIO). */
const terminalGone = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EIO' || code === 'ENXIO';
};

/**
 * The terminal hung up (an SSH session dropped, a tmux session killed): there is no screen to give
 * back, and Node 20's own reset of the terminal as it exits would abort on it (a check of
 * tcsetattr's answer, EIO here: nodejs/node#51519, removed in later Node by #58200), leaving a
 * native stack trace for a plain hang-up. The process dies of the hang-up, as one does by default:
 * its listener gone, the signal's default action ends it, with no exit hook to run.
 */
function dieOfHangUp(proc: GuardedProcess): void {
  proc.removeAllListeners('SIGHUP');
  proc.kill(proc.pid, 'SIGHUP');
}

/** Colour is off with NO_COLOR (any value), FORCE_COLOR=0, --no-color, or when not a terminal. */
export function colorWanted(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag === false) return false;
  if (env['NO_COLOR'] !== undefined) return false;
  if (env['FORCE_COLOR'] === '0' || env['FORCE_COLOR'] === 'false') return false;
  return isTTY || (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '');
}

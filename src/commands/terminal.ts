// The terminal around the console: the alternate screen on start, and the
// screen and cursor given back on every way out (exit, crash, signals).
const ENTER = '\u001b[?1049h\u001b[H';
// Cursor shown, autowrap back on (the screen writer turns it off), main screen back.
const LEAVE = '\u001b[?25h\u001b[?7h\u001b[?1049l';

export interface TerminalGuard {
  restore(): void;
  /** The main screen back for a while (a command of the user's runs), the guards kept. */
  leave(): void;
  /** The alternate screen again after `leave`. */
  enter(): void;
}

export function enterAlternateScreen(stdout: NodeJS.WriteStream = process.stdout): TerminalGuard {
  if (!stdout.isTTY) return { restore: () => undefined, leave: () => undefined, enter: () => undefined };
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    stdout.write(LEAVE);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143);
  };
  const onCrash = (error: unknown) => {
    restore();
    process.stderr.write(
      `checkwall crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  };
  stdout.write(ENTER);
  process.once('exit', restore);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  process.once('SIGINT', onSignal);
  process.once('uncaughtException', onCrash);
  process.once('unhandledRejection', onCrash);
  return { restore, leave: () => void stdout.write(LEAVE), enter: () => void stdout.write(ENTER) };
}

/** Colour is off with NO_COLOR (any value), FORCE_COLOR=0, --no-color, or when not a terminal. */
export function colorWanted(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag === false) return false;
  if (env['NO_COLOR'] !== undefined) return false;
  if (env['FORCE_COLOR'] === '0' || env['FORCE_COLOR'] === 'false') return false;
  return isTTY || (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '');
}

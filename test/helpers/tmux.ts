// A real terminal for end-to-end tests: tmux on a private socket runs the
// program at a given size; we type with send-keys and read with capture-pane.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface Terminal {
  capture(): string;
  /** The screen with its colour and style escapes. */
  captureStyled(): string;
  sendKeys(...keys: string[]): void;
  type(text: string): void;
  resize(cols: number, rows: number): void;
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** True once the program has exited (the pane is dead). */
  exited(): boolean;
  kill(): void;
  /** Any other tmux command on this terminal's server (set-option, pipe-pane, show-buffer…). */
  tmux(...args: string[]): string;
}

export function startTerminal(
  command: string,
  opts: { cols: number; rows: number; env?: Record<string, string> },
): Terminal {
  const socket = `checkwall-test-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  // CI=true as CI has it: the console must still draw live frames (Ink goes quiet under CI).
  const env = Object.entries({
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'xterm-256color',
    CI: 'true',
    // The terminal tests need no real browser: without this every demo they start runs
    // its own Chromium, several at once on a 2-core CI machine, starving the tests of
    // the browser runner itself (they run real Chromium, test/server/runners/).
    CHECKWALL_CHROMIUM: '/nonexistent/chromium',
    ...opts.env,
  })
    .map(([k, v]) => `${k}=${shellQuote(v)}`)
    .join(' ');
  tmux(
    'new-session',
    '-d',
    '-s',
    'main',
    '-x',
    String(opts.cols),
    '-y',
    String(opts.rows),
    `env ${env} ${command}`,
  );
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  const capture = () => tmux('capture-pane', '-p', '-t', 'main');
  return {
    capture,
    captureStyled: () => tmux('capture-pane', '-p', '-e', '-t', 'main'),
    sendKeys: (...keys) => void tmux('send-keys', '-t', 'main', ...keys),
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    resize: (cols, rows) => void tmux('resize-window', '-t', 'main', '-x', String(cols), '-y', String(rows)),
    exited: () => tmux('display-message', '-p', '-t', 'main', '#{pane_dead}').trim() === '1',
    // tmux tells no one when its screen changes: a bounded poll of the pane.
    waitFor: (pattern, timeoutMs = 15_000) =>
      vi.waitFor(
        () => {
          const screen = capture();
          if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) return screen;
          throw new Error(`timed out waiting for ${String(pattern)}; the screen was:\n${screen}`);
        },
        { timeout: timeoutMs, interval: 100 },
      ),
    kill: () => {
      spawnSync('tmux', ['-L', socket, 'kill-server']);
    },
    tmux,
  };
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

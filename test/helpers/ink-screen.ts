// The console's own App drawn by Ink into a fake terminal in this process, as
// runConsoleApp draws it (Ink into the console's screen, the real store, no
// poller), counting what reaches the terminal: for tests of what a refresh or a
// clock tick writes, and for the benches' soaks. The benches set NODE_ENV to
// "production" before they import this module (React's development build leaks).
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { render } from 'ink';
import { createElement } from 'react';
import { createScreen } from '../../src/commands/screen.js';
import type { ConsoleStore } from '../../src/store/create-store.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';

export interface Harness {
  bytes(): number;
  /** Every write the terminal received, in order. */
  writes: string[];
  /** Applies a change to the store and resolves once Ink has drawn what it changed (if anything). */
  frame(change: () => void): Promise<void>;
  unmount(): void;
}

export function drawInProcess(store: ConsoleStore, cols: number, rows: number, keep = false): Harness {
  let written = 0;
  const writes: string[] = [];
  // A terminal that counts what the console's screen writes to it.
  const terminal = Object.assign(new EventEmitter(), {
    columns: cols,
    rows,
    write(text: string) {
      written += Buffer.byteLength(text);
      if (keep) writes.push(text);
    },
  });
  const screen = createScreen(terminal);
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
  });
  const app = render(
    createElement(App, {
      store,
      theme: createTheme({ color: true, ascii: false }),
      actions: { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined },
    }),
    {
      // As runConsoleApp has it: Ink hands whole frames to the screen, which writes what changed.
      stdout: screen.sink,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  return {
    bytes: () => written,
    writes,
    frame(change) {
      // A store change re-renders in a microtask and Ink (debug mode) draws at once:
      // by the next macrotask the frame, if any, has been written.
      change();
      return new Promise<void>((resolve) => setImmediate(resolve));
    },
    unmount() {
      screen.stop();
      app.unmount();
    },
  };
}

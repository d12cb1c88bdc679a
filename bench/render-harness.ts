// The console's own App drawn by Ink into a fake terminal in this process, as
// runConsoleApp draws it (incremental rendering, the real store, no poller),
// counting the bytes Ink writes. For the refresh soaks: heap and bytes per refresh.
// NODE_ENV must be "production" before React loads (see bin/checkwall.js):
// the benches import this module dynamically after setting it.
import { PassThrough, Writable } from 'node:stream';
import { render } from 'ink';
import { createElement } from 'react';
import type { ConsoleStore } from '../src/store/create-store.js';
import { App } from '../src/ui/app.js';
import { createTheme } from '../src/ui/theme.js';

export interface Harness {
  bytes(): number;
  /** Applies a change to the store and resolves once Ink has drawn it (or at once if nothing changed). */
  frame(change: () => void): Promise<void>;
  unmount(): void;
}

export function drawInProcess(store: ConsoleStore, cols: number, rows: number): Harness {
  let written = 0;
  const stdout = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
        done();
      },
    }),
    { isTTY: true, columns: cols, rows },
  );
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
  });
  let rendered: (() => void) | undefined;
  const app = render(
    createElement(App, {
      store,
      theme: createTheme({ color: true, ascii: false }),
      actions: { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined },
    }),
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      exitOnCtrlC: false,
      patchConsole: false,
      incrementalRendering: true,
      // The console runs at 15 fps; the soak draws every refresh without waiting for the throttle.
      maxFps: 1_000,
      onRender: () => rendered?.(),
    },
  );
  return {
    bytes: () => written,
    frame(change) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => resolve(), 50);
        rendered = () => {
          clearTimeout(timer);
          rendered = undefined;
          setImmediate(resolve);
        };
        change();
      });
    },
    unmount: () => app.unmount(),
  };
}

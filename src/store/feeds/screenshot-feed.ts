// Fetches the screenshot the user asked for, and saves it to a file when asked
// to: in the working directory (handy for scp), else the temporary directory.
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConsoleState } from '../state.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';

/** A short file name (it is read off the screen) made only of safe characters, whatever the ids hold. */
/** The result on screen, if a result view is on top. */
function openResultId(s: ConsoleState): string | undefined {
  const view = selectView(s);
  return view.name === 'result' ? view.resultId : undefined;
}

export function screenshotFileName(checkId: string, resultId: string): string {
  const safe = (s: string, n: number) => s.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, n);
  return `checkwall-${safe(checkId, 40)}-${safe(resultId, 8)}.png`;
}

async function save(name: string, png: Uint8Array, dirs: readonly string[]): Promise<string> {
  let last: unknown;
  for (const dir of dirs) {
    try {
      await writeFile(join(dir, name), png);
      return join(dir, name);
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

/** The feed, saving into the first of `dirs()` that takes the file. */
export function createScreenshotFeed(dirs: () => readonly string[]): Feed {
  return {
    key: 'screenshot',
    // A user's own action, once: it ends when what was asked is done.
    active: (s) => s.screenshot.pending !== null && openResultId(s) === s.screenshot.resultId,
    ignoresPause: true,
    async run({ client, store, signal, now }) {
      const { checkId, resultId, png, pending } = store.getState().screenshot;
      if (!checkId || !resultId || !pending) return;
      let bytes = png.state === 'ok' ? png.data : undefined;
      if (!bytes) {
        try {
          bytes = await client.screenshot(checkId, resultId, { signal });
        } catch (error) {
          if (!signal.aborted) store.getState().screenshotFailed(resultId, toErrorInfo(error));
          return;
        }
        store.getState().screenshotLoaded(resultId, bytes, now());
      }
      if (store.getState().screenshot.pending !== 'save') return;
      const name = screenshotFileName(checkId, resultId);
      const outcome = await save(name, bytes, dirs()).then(
        (path) => ({ ok: true as const, path }),
        (error: Error) => ({ ok: false as const, message: `cannot save ${name}: ${error.message}` }),
      );
      store.getState().screenshotSaved(resultId, outcome);
    },
  };
}

export const screenshotFeed = createScreenshotFeed(() => [process.cwd(), tmpdir()]);

// Saves a new WEBHOOK's signing secret, shown once, to a file only its owner can
// read, for scp to the receiver: in the working directory, else
// $XDG_DATA_HOME/checkwall (~/.local/share/checkwall when unset).
import { mkdir, open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { secretFileName } from '../channels-slice.js';
import type { Feed } from '../poller.js';

/** Where a secret goes when the working directory does not take it. */
export function secretDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_DATA_HOME'];
  // The XDG spec: a relative path is invalid and is ignored.
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'share'), 'checkwall');
}

async function writePrivate(path: string, text: string): Promise<void> {
  const file = await open(path, 'w', 0o600);
  try {
    // A file that was there keeps its mode on open: it is narrowed before the secret goes in.
    await file.chmod(0o600);
    await file.truncate(0);
    await file.writeFile(`${text}\n`);
  } finally {
    await file.close();
  }
}

/** The feed, saving into the first of `dirs()` that takes the file (each made if missing). */
export function createChannelSecretFeed(dirs: () => readonly string[]): Feed {
  return {
    key: 'channel-secret',
    active: (s) => s.createdSecret?.saving === true,
    ignoresPause: true,
    async run({ store }) {
      const c = store.getState().createdSecret;
      if (!c?.saving) return;
      const name = secretFileName(c.channelId);
      let last: unknown;
      for (const dir of dirs()) {
        try {
          await mkdir(dir, { recursive: true, mode: 0o700 });
          await writePrivate(join(dir, name), c.secret);
          return store.getState().createdSecretSaved(c.channelId, { ok: true, path: join(dir, name) });
        } catch (error) {
          last = error;
        }
      }
      const why = last instanceof Error ? last.message : String(last);
      store.getState().createdSecretSaved(c.channelId, { ok: false, message: `cannot save ${name}: ${why}` });
    },
  };
}

export const channelSecretFeed = createChannelSecretFeed(() => [process.cwd(), secretDataDir()]);

// Starts the console on a client: store, poller with its feeds, the Ink app on
// the alternate screen, and a clean exit. `console`, `demo` and `wall` share it.
import type { MonitoringClient } from '../api/client.js';
import { systemClock } from '../domain/clock.js';
import { createConsoleStore, type ConsoleStore } from '../store/create-store.js';
import { accountFeeds } from '../store/feeds/index.js';
import { statusesFeedVia } from '../store/feeds/statuses-feed.js';
import { spawnStatusesWorker } from '../store/poll-worker/spawn.js';
import { createPoller, type Feed } from '../store/poller.js';
import type { View } from '../store/types.js';
import { createScreen } from './screen.js';
import { colorWanted, enterAlternateScreen } from './terminal.js';
import { colorDepth } from '../ui/widgets/half-block/half-block.js';
import { hyperlinksWanted } from '../domain/links.js';
import type { UserCommand } from '../domain/user-commands.js';
import { createHands } from './hands.js';

export interface ConsoleOptions {
  client: MonitoringClient;
  label: string;
  refreshSeconds: number;
  color: boolean | undefined; // false from --no-color
  ascii: boolean;
  initialView?: View;
  /** Instead of the account's feeds (e.g. a public dashboard's). */
  feeds?: readonly Feed[];
  /** Reading a public dashboard without credentials. */
  isPublic?: boolean;
  wallCycleMs?: number;
  /** Ring the terminal bell once each time a check turns failing. */
  bell?: boolean;
  /** false from --no-links: no OSC 8 hyperlinks even where the terminal draws them. */
  links?: boolean;
  /** A status page to link from the header (the demo's, whose path the label names). */
  statusPageUrl?: string;
  /** The config file's own commands (checked against the keymap already); none on the wall or --public. */
  userCommands?: UserCommand[];
  /** Runs once the store exists (e.g. to set the wall's scope). */
  setup?(store: ConsoleStore): void;
}

export async function runConsoleApp(opts: ConsoleOptions): Promise<number> {
  const stdout = process.stdout;
  const color = colorWanted(opts.color, process.env, Boolean(stdout.isTTY));
  // Chalk decides its colour level when Ink loads: say no before that.
  if (!color) process.env['FORCE_COLOR'] = '0';
  // Ink (through is-in-ci, read once when it loads) draws no live frames when CI
  // or CONTINUOUS_INTEGRATION is set, only the last one on exit: a console on a
  // real terminal would stay blank in any shell that exports CI.
  if (stdout.isTTY) {
    delete process.env['CI'];
    delete process.env['CONTINUOUS_INTEGRATION'];
  }
  // The first poll goes out now and the UI loads while it is answered: loading Ink
  // and React takes as long as a large account's statuses take to read (see
  // BENCHMARKS.md, "The console").
  const ui = Promise.all([import('ink'), import('../ui/app.js'), import('../ui/theme.js')]);
  const host = new URL(opts.client.baseUrl).host;
  const store = createConsoleStore(
    {
      label: opts.label,
      host,
      refreshMs: opts.refreshSeconds * 1000,
      color,
      ascii: opts.ascii,
      truecolor: colorDepth(process.env) === 'truecolor',
      wallCycleMs: opts.wallCycleMs ?? 8_000,
      isPublic: opts.isPublic ?? false,
      baseUrl: opts.client.baseUrl,
      statusPageUrl: opts.statusPageUrl,
    },
    opts.initialView,
  );
  store.getState().setSize(stdout.columns || 80, stdout.rows || 24);
  if (!opts.isPublic) store.getState().setUserCommands(opts.userCommands ?? []);
  opts.setup?.(store);
  // The account's statuses are polled in a worker thread: a key never waits behind a poll.
  const worker = opts.feeds ? undefined : spawnStatusesWorker(opts.client.threadOptions());
  const poller = createPoller({
    store,
    client: opts.client,
    feeds: opts.feeds ? [...opts.feeds] : accountFeeds(statusesFeedVia(worker!)),
    clock: systemClock,
  });
  const [{ render }, { appElement }, { createTheme }] = await ui;
  const onResize = () => store.getState().setSize(stdout.columns || 80, stdout.rows || 24);
  stdout.on('resize', onResize);
  const stopBell = opts.bell ? ringOnFailure(store, stdout) : () => undefined;
  const terminal = enterAlternateScreen(stdout);
  // Keys from the first frame on: Ink turns raw mode on in an effect after its first
  // commit, and that first frame can already be the whole board (the poll went out
  // before the UI loaded); in the line discipline's cooked mode, a key typed then
  // would wait for Enter and arrive with it.
  const stdin = process.stdin;
  if (stdin.isTTY) stdin.setRawMode(true);
  const screen = createScreen(stdout, { ascii: opts.ascii });
  let quit: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (quit = resolve));
  const links = hyperlinksWanted(opts.links === false, process.env, Boolean(stdout.isTTY));
  const hands = createHands({ stdout, stdin, screen, terminal });
  const app = render(
    appElement({
      store,
      theme: createTheme({ color, ascii: opts.ascii, links }),
      actions: { quit, pollNow: poller.pollNow, togglePause: poller.togglePause, ...hands },
    }),
    // Debug mode: Ink hands each whole frame to the screen, which writes the lines that changed.
    { stdout: screen.sink, debug: true, exitOnCtrlC: false, patchConsole: false },
  );
  await done;
  poller.stop();
  await worker?.stop();
  stopBell();
  screen.stop();
  app.unmount();
  if (stdin.isTTY) stdin.setRawMode(false);
  stdout.off('resize', onResize);
  terminal.restore();
  await opts.client.close();
  return 0;
}

/** One bell for each check that turns failing (not again while it stays failing). */
export function ringOnFailure(store: ConsoleStore, out: NodeJS.WritableStream): () => void {
  return store.subscribe((state, previous) => {
    if (state.newlyFailing !== previous.newlyFailing && state.newlyFailing.length > 0)
      out.write('\u0007'.repeat(state.newlyFailing.length));
  });
}

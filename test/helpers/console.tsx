// The console as the frame tests drive it: a real store and poller on a real
// client, drawn by ink-testing-library. `close` stops it and the client.
import { render } from 'ink-testing-library';
import type { MonitoringClient } from '../../src/api/client.js';
import { systemClock, type Clock } from '../../src/domain/clock.js';
import type { ConsoleStore } from '../../src/store/create-store.js';
import { createPoller, type Feed, type Poller } from '../../src/store/poller.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';

export interface MountedConsole {
  view: ReturnType<typeof render>;
  poller: Poller;
  close(): Promise<void>;
}

export function mountConsole(
  store: ConsoleStore,
  client: MonitoringClient,
  feeds: readonly Feed[],
  {
    color = true,
    clock = systemClock,
    links = false,
  }: { color?: boolean; clock?: Clock; links?: boolean } = {},
): MountedConsole {
  const poller = createPoller({ store, client, feeds: [...feeds], tickMs: 0, clock });
  const view = render(
    <App
      store={store}
      actions={{ quit: () => undefined, pollNow: poller.pollNow, togglePause: poller.togglePause }}
      theme={createTheme({ color, ascii: false, links })}
    />,
  );
  return {
    view,
    poller,
    async close() {
      view.unmount();
      poller.stop();
      await client.close();
    },
  };
}

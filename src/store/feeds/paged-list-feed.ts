// The feed of a paged list (paged-list.ts): fetches the list's query while
// `active`, drops an answer to a question no longer asked (another page, or the
// list before a create: the poller runs again for the new one, and the
// selection must not jump meanwhile), and keeps the old page on screen when a
// refresh fails.
import type { MonitoringClient } from '../../api/client.js';
import type { ConsoleState } from '../state.js';
import type { ListName, ListPage, Lists } from '../paged-list.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { remoteData } from '../detail-slice.js';
import type { Remote } from '../types.js';

export interface PagedListFeedSpec<N extends ListName> {
  key: string;
  list: N;
  active(state: ConsoleState): boolean;
  fetch(client: MonitoringClient, query: Lists[N]['query'], signal: AbortSignal): Promise<ListData<N>>;
}

type ListData<N extends ListName> = Lists[N]['remote'] extends infer R
  ? R extends { state: 'ok'; data: infer D }
    ? D
    : never
  : never;

export function pagedListFeed<N extends ListName>(spec: PagedListFeedSpec<N>): Feed {
  const target = (s: ConsoleState) => {
    const list = s.lists[spec.list];
    return `${JSON.stringify(list.query)}|${list.version}`;
  };
  return {
    key: spec.key,
    active: spec.active,
    target,
    async run({ client, store, signal, now }) {
      const asked = target(store.getState());
      const { query, remote: previous } = store.getState().lists[spec.list];
      const current = () => target(store.getState()) === asked;
      // N is one list, but TypeScript cannot see that through the union of lists.
      const set = (r: Lists[N]['remote']) => store.getState().setList(spec.list, r as never);
      try {
        const data = await spec.fetch(client, query, signal);
        if (current()) set({ state: 'ok', data, at: now() } as Lists[N]['remote']);
      } catch (error) {
        if (!signal.aborted && current())
          set({
            state: 'error',
            error: toErrorInfo(error),
            data: remoteData(previous as Remote<ListPage>),
          } as never);
        throw error;
      }
    },
  };
}

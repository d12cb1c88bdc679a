// One paged list from the API with a selection: the page asked (with the
// list's own query), the answer (kept on screen when a refresh fails), and the
// selected item (by id, so it survives refreshes). Channels and dashboards are
// instances; a new list (alert notifications) adds an entry to `Lists`, its
// initial value to INITIAL_LISTS, and a `pagedListFeed` (feeds/paged-list-feed.ts).
import type { StateCreator } from 'zustand/vanilla';
import type { AlertChannelList, DashboardList } from '../api/schemas/index.js';
import type { ConsoleState } from './state.js';
import type { Remote } from './types.js';
import { stepTo } from '../domain/step.js';

/** What every paged answer of the API has. */
export interface ListPage {
  data: Array<{ id: string | number }>;
  meta: { totalPages: number; totalItems: number };
}

export interface PageQuery {
  page: number;
}

export interface DashboardsQuery extends PageQuery {
  tags: string[];
  /** undefined: both private and public. */
  isPrivate: boolean | undefined;
}

export interface PagedList<P extends ListPage, Q extends PageQuery> {
  remote: Remote<P>;
  query: Q;
  /** Bumped to fetch the same query again at once (after a create). */
  version: number;
  selectedId: ItemOf<P>['id'] | null;
}

export type ItemOf<P extends ListPage> = P['data'][number];

/** Every paged list of the console. */
export interface Lists {
  channels: PagedList<AlertChannelList, PageQuery>;
  dashboards: PagedList<DashboardList, DashboardsQuery>;
}
export type ListName = keyof Lists;
type QueryOf<N extends ListName> = Lists[N]['query'];

export const INITIAL_LISTS: Lists = {
  channels: { remote: { state: 'idle' }, query: { page: 1 }, version: 0, selectedId: null },
  dashboards: {
    remote: { state: 'idle' },
    query: { page: 1, tags: [], isPrivate: undefined },
    version: 0,
    selectedId: null,
  },
};

export interface PagedListSlice {
  lists: Lists;
  /** An answer: the selection stays on its item while listed, else goes to the first. */
  setList<N extends ListName>(name: N, remote: Lists[N]['remote']): void;
  moveInList(name: ListName, delta: number | 'first' | 'last'): void;
  /** Another page, within the pages there are. */
  pageList(name: ListName, delta: number): void;
  /** A new query (its feed fetches at once); `page` goes back to 1 unless given. */
  queryList<N extends ListName>(name: N, patch: Partial<QueryOf<N>>): void;
  /** Fetch again at once, on `page` with `selectedId` selected when given. */
  reloadList<N extends ListName>(name: N, at?: { page: number; selectedId: Lists[N]['selectedId'] }): void;
}

/** The items of a list's answer, the old ones while a refresh is out or failed. */
export function listItems<P extends ListPage>(list: PagedList<P, PageQuery>): ItemOf<P>[] {
  const r = list.remote;
  return (r.state === 'ok' || r.state === 'error' || r.state === 'loading' ? r.data?.data : undefined) ?? [];
}

export const createPagedListSlice: StateCreator<ConsoleState, [], [], PagedListSlice> = (set, get) => {
  const patch = <N extends ListName>(name: N, p: Partial<Lists[N]>) =>
    set({ lists: { ...get().lists, [name]: { ...get().lists[name], ...p } } });
  return {
    lists: INITIAL_LISTS,
    setList(name, remote) {
      patch(name, { remote } as Partial<Lists[typeof name]>);
      if (remote.state !== 'ok') return;
      const list = get().lists[name];
      const ids = remote.data.data.map((item) => item.id);
      if (!ids.includes(list.selectedId as never))
        patch(name, { selectedId: ids[0] ?? null } as Partial<Lists[typeof name]>);
    },
    moveInList(name, delta) {
      const list = get().lists[name];
      const ids = listItems<ListPage>(list).map((item) => item.id);
      const id = stepTo(ids, list.selectedId, delta);
      if (id !== undefined) patch(name, { selectedId: id } as Partial<Lists[typeof name]>);
    },
    pageList(name, delta) {
      const { remote, query } = get().lists[name];
      const total = remote.state === 'ok' ? remote.data.meta.totalPages : 1;
      const page = Math.min(Math.max(1, total), Math.max(1, query.page + delta));
      if (page !== query.page) patch(name, { query: { ...query, page } });
    },
    queryList(name, p) {
      patch(name, { query: { ...get().lists[name].query, page: 1, ...p } } as Partial<Lists[typeof name]>);
    },
    reloadList(name, at) {
      const list = get().lists[name];
      patch(name, {
        version: list.version + 1,
        ...(at ? { query: { ...list.query, page: at.page }, selectedId: at.selectedId } : {}),
      } as Partial<Lists[typeof name]>);
    },
  };
};

// One paged list from the API with a selection: the page asked (with the
// list's own query), the answer (kept on screen when a refresh fails), and the
// selected item (by id, so it survives refreshes). Channels and dashboards are
// instances; a new list (alert notifications) adds an entry to `Lists`, its
// initial value to INITIAL_LISTS, and a `pagedListFeed` (feeds/paged-list-feed.ts).
import type { StateCreator } from 'zustand/vanilla';
import type {
  ConsoleState,
  ListPage,
  PageQuery,
  PagedList,
  ItemOf,
  Lists,
  ListName,
  PagedListSlice,
} from './state.js';
import { stepTo } from '../domain/step.js';

export type {
  ListPage,
  PageQuery,
  DashboardsQuery,
  PagedList,
  ItemOf,
  Lists,
  ListName,
  PagedListSlice,
} from './state.js';

export const INITIAL_LISTS: Lists = {
  channels: { remote: { state: 'idle' }, query: { page: 1 }, version: 0, selectedId: null },
  dashboards: {
    remote: { state: 'idle' },
    query: { page: 1, tags: [], isPrivate: undefined },
    version: 0,
    selectedId: null,
  },
};

/** The items of a list's answer, the old ones while a refresh is out or failed. */
export function listItems<P extends ListPage>(list: PagedList<P, PageQuery>): ItemOf<P>[] {
  const r = list.remote;
  return (r.state === 'ok' || r.state === 'error' || r.state === 'loading' ? r.data?.data : undefined) ?? [];
}

/** The list's selected item, among those held; undefined when none is. */
export function selectedItem<P extends ListPage>(
  list: PagedList<P, PageQuery> & { selectedId: unknown },
): ItemOf<P> | undefined {
  return listItems(list).find((item) => item.id === list.selectedId);
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

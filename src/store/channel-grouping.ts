// `w` on the channels (docs/console.md, "Alert channels"): changes the selected channel's
// grouping window (docs/alerts.md, "Grouping per channel") without leaving the list. The
// prompt starts with the window the channel was given (blank: it takes its type's
// default), as if selected: enter alone changes nothing, and the first key typed
// replaces it. Bad input and a refusal keep what was typed and say why; a change is
// sent once (feeds/alerts-feed.ts) and the list read again.
import type { StateCreator } from 'zustand/vanilla';
import {
  defaultGroupWindowSeconds,
  GROUP_WINDOW_REASON,
  groupWindowOf,
  MAX_GROUP_WINDOW_SECONDS,
  groupWindowText,
  parseGroupWindow,
} from '../domain/group-window.js';
import { selectedItem } from './paged-list.js';
import type { ChannelsSlice, ConsoleState, GroupingEdit } from './state.js';

type Set = Parameters<StateCreator<ConsoleState, [], [], ChannelsSlice>>[0];

export function groupingActions(set: Set, get: () => ConsoleState) {
  const asking = (): Extract<GroupingEdit, { state: 'ask' }> | undefined => {
    const g = get().grouping;
    return g.state === 'ask' ? g : undefined;
  };
  return {
    grouping: { state: 'idle' },
    askGrouping() {
      if (get().grouping.state === 'sending') return;
      const channel = selectedItem(get().lists.channels);
      if (!channel) return set({ grouping: { state: 'done', ok: false, message: 'no channel selected' } });
      const own = channel.groupWindowSeconds;
      set({
        grouping: {
          state: 'ask',
          channelId: channel.id,
          name: channel.name,
          was: groupWindowOf(channel),
          fallback: defaultGroupWindowSeconds(channel.type),
          text: own === null || own === undefined ? '' : groupWindowText(own),
          fresh: true,
          error: null,
        },
      });
    },
    groupingType(text) {
      const g = asking();
      if (g) set({ grouping: { ...g, text: (g.fresh ? '' : g.text) + text, fresh: false } });
    },
    groupingErase() {
      const g = asking();
      if (g) set({ grouping: { ...g, text: g.fresh ? '' : g.text.slice(0, -1), fresh: false } });
    },
    groupingApply() {
      const g = asking();
      if (!g) return;
      const blank = g.text.trim() === '';
      const seconds = blank ? null : parseGroupWindow(g.text);
      if (seconds === undefined || (seconds ?? 0) > MAX_GROUP_WINDOW_SECONDS)
        return set({ grouping: { ...g, fresh: false, error: GROUP_WINDOW_REASON } });
      const { error: _shown, ...ask } = g;
      set({ grouping: { ...ask, state: 'sending', seconds } });
    },
    groupingCancel() {
      if (asking()) set({ grouping: { state: 'idle' } });
    },
    groupingDone(outcome) {
      const g = get().grouping;
      if (g.state !== 'sending') return;
      const { seconds: _sent, ...ask } = g;
      // Refused (a 400, 403, 404…) or not answered: the prompt again, as typed, with why.
      if (!outcome.ok)
        return set({ grouping: { ...ask, state: 'ask', fresh: false, error: outcome.error.message } });
      const { groupWindowSeconds: own, effectiveSeconds: now } = outcome.value;
      const message =
        `${g.name}: grouping window ${groupWindowText(now)}` +
        `${own === null ? ' (its type’s default)' : ''}, was ${groupWindowText(g.was)}`;
      set({ grouping: { state: 'done', ok: true, message } });
      get().reloadList('channels');
    },
    dismissGrouping() {
      if (get().grouping.state === 'done') set({ grouping: { state: 'idle' } });
    },
  } satisfies Partial<ChannelsSlice>;
}

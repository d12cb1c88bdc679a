// `s` on the channels (docs/console.md, "Alert channels"): the new-channel form's two
// subscription rows alone, filled with what the selected channel serves, sent with a PUT
// (feeds/channels-feed.ts). Its locations are not shown and go back as they were.
import type { StateCreator } from 'zustand/vanilla';
import type { Subscriptions } from '../api/schemas/index.js';
import { EMPTY_FORM, type ChannelForm } from './channel-form.js';
import { selectedItem } from './paged-list.js';
import { selectView } from './selectors.js';
import type { ChannelsSlice, ConsoleState } from './state.js';

type Set = Parameters<StateCreator<ConsoleState, [], [], ChannelsSlice>>[0];

export function subscriptionActions(set: Set, get: () => ConsoleState) {
  return {
    openSubscriptions() {
      const c = selectedItem(get().lists.channels);
      if (!c) return;
      // A service that does not list what a channel serves: a PUT would guess, and could erase.
      if (!c.subscriptions)
        return get().setHandsNote(`the service does not say what ${c.name} serves: change it over the API`);
      const { checks, groups, locations = [] } = c.subscriptions;
      const edit = { channelId: c.id, name: c.name, was: { checks, groups }, locations };
      get().pushView({ name: 'channel-form' });
      set({ form: { ...EMPTY_FORM, edit, subscriptions: { checks, groups } }, focus: 'form' });
    },
  } satisfies Partial<ChannelsSlice>;
}

/** The PUT went through: the form goes, the foot says what the channel serves, the list is read again. */
export function subscriptionsSaved(set: Set, get: () => ConsoleState, subs: Subscriptions): void {
  const edit = get().form.edit;
  set({ form: EMPTY_FORM });
  if (edit) get().setHandsNote(servesText(edit.name, subs));
  get().reloadList('channels');
  if (selectView(get()).name === 'channel-form') get().popView();
}

/**
 * An edit not sent: someone saved the channel's subscriptions since the form opened. The
 * choices stay; what it serves now becomes the edit's start (its locations too), so a
 * second enter saves the choices over it knowingly, and esc leaves it as it is.
 */
export function changedMeanwhile(form: ChannelForm, now: Subscriptions): ChannelForm {
  if (!form.edit) return form;
  const { name } = form.edit;
  return {
    ...form,
    submitting: false,
    edit: { ...form.edit, was: { checks: now.checks, groups: now.groups }, locations: now.locations },
    formError: `not saved: changed meanwhile (${servesText(name, now)}) — enter saves your choices over it, esc keeps it`,
  };
}

/** What a channel serves after an edit, said once on the channels list. */
function servesText(name: string, subs: Subscriptions): string {
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
  const { checks, groups, locations } = subs;
  const outages = locations.length ? `the outages of ${n(locations.length, 'location')}` : '';
  const served = [
    ...(checks.length ? [n(checks.length, 'check')] : []),
    ...(groups.length ? [n(groups.length, 'group')] : []),
  ];
  if (served.length === 0)
    return `${name} serves no check or group now: it pages for ${outages || 'nothing'}`;
  return `${name} serves ${served.join(' and ')} now${outages ? `, and ${outages}` : ''}`;
}

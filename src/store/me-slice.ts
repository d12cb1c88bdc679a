// Who the console's key is (GET /v1/me), read once connected: its role says
// which actions the console offers. Unknown (null) until the service answers,
// and on a service without /v1/me: then everything is offered and the
// service's own 403 says what a key may not do.
import type { StateCreator } from 'zustand/vanilla';
import { roleAllows, type Me, type Role } from '../api/schemas/actions.js';
import type { ConsoleState } from './state.js';

export type { Me, Role } from '../api/schemas/actions.js';

export interface MeSlice {
  /** The key's account, name and role: `store.getState().me?.role`. */
  me: Me | null;
  setMe(me: Me): void;
}

export const createMeSlice: StateCreator<ConsoleState, [], [], MeSlice> = (set) => ({
  me: null,
  setMe: (me) => set({ me }),
});

/** What the key may not do for want of `needs`: its role, or null when it may (or is not known yet). */
export function selectMissingRole(s: Pick<ConsoleState, 'me'>, needs: Role): Role | null {
  return s.me && !roleAllows(s.me.role, needs) ? s.me.role : null;
}

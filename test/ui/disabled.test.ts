// Why a key is not offered, said by one function (src/ui/commands/disabled.ts)
// for the footer, the ? overlay and the key itself: the key's role, public
// mode, or nothing on screen to act on.
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/api/schemas/actions.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { selectFooterHints } from '../../src/ui/app.js';
import { disabledReason } from '../../src/ui/commands/disabled.js';
import { handleInput, keyOf } from '../../src/ui/input.js';
import { bindingOf, KEYMAP } from '../../src/ui/keymap.js';
import { keyScopes } from '../../src/ui/scopes.js';
import { roleNotes } from '../../src/ui/views/help/help-overlay.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

function storeWithCheck(role: Role | null, isPublic = false): ConsoleStore {
  const store = createConsoleStore({ isPublic });
  const check = sampleStatus('c1', { checkName: 'Payments' });
  store.getState().applyStatuses([check], sampleSummary(), Date.now());
  if (role) store.getState().setMe({ accountId: 'a', keyName: 'k', role });
  return store;
}

function press(store: ConsoleStore, input: string, over: Partial<Key> = {}) {
  const ctx = {
    store,
    pageSize: 10,
    actions: { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined },
  };
  handleInput(ctx, () => keyScopes(store.getState()), input, { ...keyOf(input), ...over });
}

describe('a binding not offered', () => {
  it('does not ask on a read key: it says why, and asks once the key may', () => {
    const store = storeWithCheck('read');
    store.getState().openCheck('c1', false);
    press(store, 'z');
    expect(store.getState().keyRefusal).toBe('z: needs an operate key; this key is read');
    expect(store.getState().checkAction).toEqual({ state: 'idle' });
    store.getState().setMe({ accountId: 'a', keyName: 'oncall', role: 'operate' });
    press(store, 'r', { ctrl: true });
    expect(store.getState().checkAction.state).toBe('confirm');
  });

  it('needs the role of the route behind each key (docs/roles.md)', () => {
    const roles = Object.fromEntries(KEYMAP.filter((b) => b.role).map((b) => [b.command, b.role]));
    expect(roles).toEqual({
      'board.maintenance': 'operate',
      'check.maintenance': 'operate',
      'check.acknowledge': 'operate',
      'act.runNow': 'operate',
      'act.pause': 'operate',
      'channels.new': 'admin',
      'channels.reveal': 'operate',
      'channels.test': 'admin',
      'channels.grouping': 'admin',
      'channels.subscriptions': 'admin',
      'maintenance.end': 'operate',
      'maintenance.extend': 'operate',
    });
  });

  it('says the role, public mode, or nothing to act on; offers everything until the role is known', () => {
    const read = storeWithCheck('read').getState();
    expect(disabledReason(bindingOf('channels.new'), read)).toBe('needs an admin key; this key is read');
    const operate = storeWithCheck('operate').getState();
    expect(disabledReason(bindingOf('channels.new'), operate)).toBe(
      'needs an admin key; this key is operate',
    );
    expect(disabledReason(bindingOf('act.runNow'), operate)).toBeUndefined();
    expect(disabledReason(bindingOf('board.open'), read)).toBeUndefined();
    const unknown = storeWithCheck(null).getState();
    expect(disabledReason(bindingOf('channels.new'), unknown)).toBeUndefined();
    const shown = storeWithCheck(null, true).getState();
    expect(disabledReason(bindingOf('act.runNow'), shown)).toBe('a public dashboard has no key to act with');
    const empty = createConsoleStore().getState();
    expect(disabledReason(bindingOf('act.runNow'), empty)).toBe('no check selected');
    expect(disabledReason(bindingOf('board.maintenance'), empty)).toBe('no check selected');
    expect(disabledReason(bindingOf('maintenance.end'), empty)).toBe('no window selected');
    expect(disabledReason(bindingOf('channels.test'), empty)).toBe('no channel selected');
  });

  it('is left out of the footer, and listed by ? with why', () => {
    const store = storeWithCheck('read');
    store.getState().pushView({ name: 'channels' });
    expect(selectFooterHints(store.getState())).not.toMatch(/\bnew\b|reveal|test/);
    store.getState().setMe({ accountId: 'a', keyName: 'k', role: 'admin' });
    expect(selectFooterHints(store.getState())).toMatch(/n new/);
    store.getState().setMe({ accountId: 'a', keyName: 'k', role: 'read' });
    expect(roleNotes(store.getState())).toEqual([
      'M, a, ctrl+r, z, v, e, +: need an operate key; this key is read',
      'n, T, w, s: need an admin key; this key is read',
    ]);
  });

  it('says why when pressed, instead of acting', () => {
    const store = storeWithCheck('read');
    store.getState().pushView({ name: 'channels' });
    press(store, 'n');
    expect(store.getState().keyRefusal).toBe('n: needs an admin key; this key is read');
    expect(store.getState().stack.map((v) => v.name)).toEqual(['board', 'channels']);
  });
});

// Keys that arrive as one chunk (typed faster than read, pasted, or sent by a
// script) act as if typed one by one; unknown escape sequences do nothing.
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { createConsoleStore } from '../../src/store/create-store.js';
import { selectView } from '../../src/store/selectors.js';
import { handleInput, keyOf } from '../../src/ui/input.js';
import { keyScopes } from '../../src/ui/scopes.js';

const noKey = { ctrl: false, meta: false, shift: false } as Key;

function consoleWith() {
  const store = createConsoleStore();
  let quit = 0;
  const ctx = {
    store,
    pageSize: 10,
    actions: { quit: () => void quit++, pollNow: () => undefined, togglePause: () => undefined },
  };
  const scopes = () => keyScopes(store.getState());
  // A key alone comes with Ink's flags for it; a chunk with none.
  const send = (input: string) => handleInput(ctx, scopes, input, input.length === 1 ? keyOf(input) : noKey);
  return { store, send, quits: () => quit };
}

describe('chunked input', () => {
  it('runs ":channels<Enter>" sent at once as the prompt and its text', () => {
    const { store, send } = consoleWith();
    send(':channels\r');
    expect(selectView(store.getState()).name).toBe('channels');
    expect(store.getState().focus).toBe('list');
  });

  it('erases with Backspaces and moves with Tabs inside a chunk typed into the form', () => {
    const { store, send } = consoleWith();
    send(':channels\r');
    send('n');
    send('\r'); // EMAIL
    send('Maik\u007f\u007fil\tops@example.com');
    expect(store.getState().form.values).toEqual({ name: 'Mail', 'config.address': 'ops@example.com' });
  });

  it('gives the keys after an Enter to what is on screen then', () => {
    const { store, send } = consoleWith();
    send('/');
    send('search\rm');
    expect(store.getState().filterText).toBe('search');
    expect(store.getState().focus).toBe('list');
    expect(selectView(store.getState()).name).toBe('metrics');
  });

  it('ignores the rest of an escape sequence Ink did not know', () => {
    const { store, send } = consoleWith();
    send('[1;5A');
    send('[200~');
    expect(store.getState().stack).toHaveLength(1);
    expect(store.getState().focus).toBe('list');
  });

  it('acts on control keys inside a chunk: Ctrl-C quits from the board and from a text field', () => {
    for (const opening of ['', '/']) {
      const { store, send, quits } = consoleWith();
      if (opening) send(opening);
      send('jj\u0003');
      expect(quits(), `after "${opening}"`).toBe(1);
      // The control character itself is never typed into the filter.
      expect(store.getState().filterText).toBe(opening ? 'jj' : '');
    }
  });
});

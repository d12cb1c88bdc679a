// The vanilla store without React: actions in, getState() out.
import { describe, expect, it } from 'vitest';
import { createConsoleStore } from '../../src/store/create-store.js';
import { matchesFilter, parseFilter } from '../../src/domain/filter.js';
import { compareChecks } from '../../src/domain/order.js';
import {
  selectBoardOrder,
  selectBoardRows,
  selectCheckCount,
  selectMaxLocations,
} from '../../src/store/selectors.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

const checks = () => [
  sampleStatus('a', { checkName: 'Alpha', status: 'passing', group: { id: 'g1', name: 'One' } }),
  sampleStatus('b', { checkName: 'Bravo', status: 'failing', group: { id: 'g2', name: 'Two' } }),
  sampleStatus('c', { checkName: 'Charlie', status: 'degraded', group: { id: 'g1', name: 'One' } }),
  sampleStatus('d', { checkName: 'Delta', status: 'failing', group: null }),
];

function loaded() {
  const store = createConsoleStore();
  store.getState().applyStatuses(checks(), sampleSummary(), 1);
  return store;
}

describe('board store', () => {
  it('orders worst first and selects the first row', () => {
    const store = loaded();
    expect(selectBoardOrder(store.getState())).toEqual(['b', 'd', 'c', 'a']);
    expect(store.getState().selectedId).toBe('b');
  });

  it('keeps the selection on the top row as data arrives until the user moves it', () => {
    const store = createConsoleStore();
    // A service warming up: everything unknown, so the first row is just the first name.
    const warming = checks().map((c) => ({ ...c, status: 'unknown' as const }));
    store.getState().applyStatuses(warming, null, 1);
    expect(store.getState().selectedId).toBe('a');
    store.getState().applyStatuses(checks(), null, 2);
    expect(store.getState().selectedId).toBe('b'); // the worst check, now that there is one
    store.getState().cycleSort(); // name
    expect(store.getState().selectedId).toBe('a');
    store.getState().moveSelection(1);
    store.getState().reverseSort();
    expect(store.getState().selectedId).toBe('b'); // moved by the user: it stays
  });

  it('keeps the selection on the same check across refreshes and re-sorts', () => {
    const store = loaded();
    store.getState().moveSelection(2); // c
    store
      .getState()
      .applyStatuses(
        [...checks().reverse(), sampleStatus('e', { checkName: 'Echo', status: 'failing' })],
        null,
        2,
      );
    expect(store.getState().selectedId).toBe('c');
    store.getState().cycleSort(); // name
    expect(selectBoardOrder(store.getState())).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(store.getState().selectedId).toBe('c');
    store.getState().reverseSort();
    expect(selectBoardOrder(store.getState())[0]).toBe('e');
    expect(store.getState().selectedId).toBe('c');
  });

  it('returns the same order array until something it depends on changes', () => {
    const store = loaded();
    const first = selectBoardOrder(store.getState());
    store.getState().tick(123);
    expect(selectBoardOrder(store.getState())).toBe(first);
    const alpha = store.getState().checks['a'];
    store.getState().applyStatuses(checks(), null, 3); // the same data again: the same objects are kept
    expect(store.getState().checks['a']).toBe(alpha);
    expect(selectBoardOrder(store.getState())).toEqual(first);
  });

  it('keeps the whole record, its order and the summary when a poll brings equal statuses', () => {
    const store = loaded();
    const before = store.getState();
    const order = selectBoardOrder(before);
    store.getState().applyStatuses(structuredClone(checks()), sampleSummary(), 5);
    const after = store.getState();
    expect(after.checks).toBe(before.checks);
    expect(after.summary).toBe(before.summary);
    expect(selectBoardOrder(after)).toBe(order);
    expect(after.statusesAt).toBe(5);
  });

  it('replaces only the check that changed', () => {
    const store = loaded();
    const before = store.getState().checks;
    const next = checks().map((c) => (c.checkId === 'c' ? { ...c, statusReason: 'slower' } : c));
    store.getState().applyStatuses(next, null, 6);
    const after = store.getState().checks;
    expect(after).not.toBe(before);
    expect(after['c']!.statusReason).toBe('slower');
    for (const id of ['a', 'b', 'd']) expect(after[id]).toBe(before[id]);
  });

  it('counts the checks and the widest location list once per record', () => {
    const store = loaded();
    expect(selectCheckCount(store.getState())).toBe(4);
    expect(selectMaxLocations(store.getState())).toBe(1);
    const wide = sampleStatus('e', {
      checkName: 'Echo',
      locations: ['a', 'b', 'c'].map((id) => ({
        id,
        name: id,
        status: 'passing' as const,
        lastSuccess: null,
      })),
    });
    store.getState().applyStatuses([...checks(), wide], null, 2);
    expect(selectCheckCount(store.getState())).toBe(5);
    expect(selectMaxLocations(store.getState())).toBe(3);
  });

  it('marks checks that turn failing, and forgets them when they recover or leave the list', () => {
    const store = loaded();
    const turn = (id: string, status: 'failing' | 'passing') =>
      checks().map((c) => (c.checkId === id ? { ...c, status } : c));
    store.getState().applyStatuses(turn('a', 'failing'), null, 7);
    expect(store.getState().newlyFailing).toEqual(['a']);
    expect(store.getState().turnedFailingAt).toEqual({ a: 7 });
    store.getState().applyStatuses(turn('a', 'failing'), null, 8);
    expect(store.getState().newlyFailing).toEqual([]);
    expect(store.getState().turnedFailingAt).toEqual({ a: 7 });
    store.getState().applyStatuses(turn('a', 'passing'), null, 9);
    expect(store.getState().turnedFailingAt).toEqual({});
    store.getState().applyStatuses(turn('a', 'failing'), null, 10);
    store.getState().applyStatuses(
      checks().filter((c) => c.checkId !== 'a'),
      null,
      11,
    );
    expect(store.getState().turnedFailingAt).toEqual({});
    expect(selectBoardOrder(store.getState())).toEqual(['b', 'd', 'c']);
  });

  it('places the checks a poll changed where a full sort would, under any sort and filter', () => {
    const statuses = ['failing', 'degraded', 'unknown', 'passing'] as const;
    const make = (i: number, round: number) =>
      sampleStatus(`k${i}`, {
        checkName: `Name ${(i * 37) % 101}`, // repeated names: ties fall to the id
        status: statuses[(i * 7 + round * (i % 3)) % 4]!,
        availability: { percentage: ((i * 13 + round) % 100) + 0.5, period: '24h' },
      });
    let list = Array.from({ length: 300 }, (_, i) => make(i, 0));
    const store = createConsoleStore();
    store.getState().applyStatuses(list, null, 1);
    for (const [sortKey, filter] of [
      ['status', ''],
      ['availability', ''],
      ['name', 'status:failing,degraded'],
    ] as const) {
      while (store.getState().sortKey !== sortKey) store.getState().cycleSort();
      store.getState().setFilter(filter);
      for (let round = 1; round <= 15; round++) {
        list = list.map((c, i) => ((i * round) % 29 === 0 ? make(i, round) : c));
        store.getState().applyStatuses(list, null, round + 1);
        const { filter: parsed } = parseFilter(filter);
        const expected = list
          .filter((c) => matchesFilter(c, parsed))
          .sort((a, b) => compareChecks(a, b, sortKey))
          .map((c) => c.checkId);
        expect(selectBoardOrder(store.getState())).toEqual(expected);
      }
    }
  });

  it('moves by rows, pages, first and last, and clamps', () => {
    const store = loaded();
    const s = () => store.getState();
    s().moveSelection('last');
    expect(s().selectedId).toBe('a');
    s().moveSelection(5);
    expect(s().selectedId).toBe('a');
    s().moveSelection(-10);
    expect(s().selectedId).toBe('b');
  });

  it('jumps to the next failing check and wraps', () => {
    const store = loaded();
    store.getState().nextFailing();
    expect(store.getState().selectedId).toBe('d');
    store.getState().nextFailing();
    expect(store.getState().selectedId).toBe('b');
  });

  it('filters as you type and clears with esc', () => {
    const store = loaded();
    store.getState().openFilter();
    store.getState().setFilter('status:failing');
    expect(selectBoardOrder(store.getState())).toEqual(['b', 'd']);
    store.getState().setFilter('status:failing br');
    expect(selectBoardOrder(store.getState())).toEqual(['b']);
    store.getState().closeFilter(true);
    expect(selectBoardOrder(store.getState())).toHaveLength(4);
    expect(store.getState().focus).toBe('list');
  });

  it('groups by check group with headings, groupless last', () => {
    const store = loaded();
    store.getState().toggleGrouping();
    expect(selectBoardRows(store.getState()).map((r) => (r.kind === 'group' ? `[${r.name}]` : r.id))).toEqual(
      ['[One]', 'c', 'a', '[Two]', 'b', '[No group]', 'd'],
    );
    expect(selectBoardOrder(store.getState())).toEqual(['c', 'a', 'b', 'd']);
  });

  it('keeps its derived order to itself: two stores never share a memo', () => {
    const one = loaded();
    const two = loaded();
    two.getState().setFilter('status:failing');
    // Read alternately: a memo shared by the stores would hand one the other's order.
    expect(selectBoardOrder(one.getState())).toEqual(['b', 'd', 'c', 'a']);
    expect(selectBoardOrder(two.getState())).toEqual(['b', 'd']);
    expect(selectBoardOrder(one.getState())).toEqual(['b', 'd', 'c', 'a']);
    expect(selectCheckCount(two.getState())).toBe(4);
  });

  it('keeps each view’s state on the view: the check’s filters and selection go with it', () => {
    const store = loaded();
    store.getState().openCheck('b', false);
    store.getState().setResultFilters({ status: 'failed' });
    const top = store.getState().stack.at(-1)!;
    expect(top.name === 'check' && top.filters.status).toBe('failed');
    store.getState().popView();
    store.getState().openCheck('d', false);
    const next = store.getState().stack.at(-1)!;
    expect(next.name === 'check' && next.filters.status).toBeUndefined();
    expect(store.getState().detail.checkId).toBe('d');
  });

  it('keeps a stack of views', () => {
    const store = loaded();
    store.getState().openCheck('b', false);
    expect(store.getState().stack.map((v) => v.name)).toEqual(['board', 'check']);
    store.getState().popView();
    store.getState().popView();
    expect(store.getState().stack.map((v) => v.name)).toEqual(['board']);
  });
});

// The wall's frames, its paging and its bell, with a real store.
import { PassThrough } from 'node:stream';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ringOnFailure } from '../../src/commands/run-console.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleStatus } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (f: string | undefined) => (f ?? '').replace(/\u001b\[[0-9;]*m/g, '');

function wall(cols: number, rows: number, failing: number, passing = 30): ConsoleStore {
  const store = createConsoleStore({ label: 'prod', host: 'mon:443', wallCycleMs: 8_000 }, 'wall');
  store.getState().setSize(cols, rows);
  const list = [
    ...Array.from({ length: failing }, (_, i) =>
      sampleStatus(`f${i}`, {
        checkName: `Broken ${String(i).padStart(2, '0')}`,
        status: 'failing',
        locations: [{ id: 'eu-west', name: 'Frankfurt', status: 'failing', lastSuccess: null }],
      }),
    ),
    ...Array.from({ length: passing }, (_, i) => sampleStatus(`p${i}`, { checkName: `Fine ${i}` })),
  ];
  store.getState().applyStatuses(list, null, Date.now());
  return store;
}

function draw(store: ConsoleStore) {
  const view = render(
    <App
      store={store}
      actions={{ quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined }}
      theme={createTheme({ color: true, ascii: false })}
    />,
  );
  unmount = view.unmount;
  return view;
}

describe('wall', () => {
  it('draws big counts, the failing checks with their locations, a clock, and the rest as marks at 200x60', async () => {
    const store = wall(200, 60, 3);
    const { lastFrame } = draw(store);
    await expect.poll(() => plain(lastFrame())).toContain('Needs attention (3)');
    const frame = plain(lastFrame());
    expect(frame).toContain('FAILING');
    expect(frame).toMatch(/\d\d:\d\d:\d\d UTC/);
    expect(frame).toMatch(/Broken 00\s+for .* at Frankfurt/);
    expect(frame).toContain('●'.repeat(30));
    expect(frame).toContain('30 other checks');
    expect(frame.split('\n').length).toBeLessThanOrEqual(60);
  });

  it('pages through more failures than fit at 80x24, by the clock', async () => {
    const store = wall(80, 24, 25);
    const { lastFrame } = draw(store);
    await expect.poll(() => plain(lastFrame())).toMatch(/page \d\/\d/);
    const pages = Number(/page \d\/(\d)/.exec(plain(lastFrame()))![1]);
    expect(pages).toBeGreaterThan(1);
    expect(plain(lastFrame()).split('\n').length).toBeLessThanOrEqual(24);
    const base = Math.floor(Date.now() / 8_000) * 8_000;
    store.getState().tick(base);
    await expect.poll(() => plain(lastFrame())).toMatch(new RegExp(`page ${((base / 8_000) % pages) + 1}/`));
    store.getState().tick(base + 8_000);
    await expect
      .poll(() => plain(lastFrame()))
      .toMatch(new RegExp(`page ${((base / 8_000 + 1) % pages) + 1}/`));
  });

  it('says so plainly when everything passes', async () => {
    const { lastFrame } = draw(wall(100, 30, 0, 5));
    await expect.poll(() => plain(lastFrame())).toContain('All 5 checks with data are passing.');
  });

  it('highlights a check that turns failing and rings the bell once per poll', async () => {
    const store = wall(120, 40, 0, 3);
    const out = new PassThrough();
    let bells = 0;
    out.on('data', (d: Buffer) => (bells += [...d.toString()].filter((c) => c === '\u0007').length));
    const stop = ringOnFailure(store, out);
    const { lastFrame } = draw(store);
    const turn = (ids: string[]) =>
      store.getState().applyStatuses(
        ['p0', 'p1', 'p2'].map((id) =>
          sampleStatus(id, { checkName: `Fine ${id}`, status: ids.includes(id) ? 'failing' : 'passing' }),
        ),
        null,
        Date.now(),
      );
    turn(['p1']);
    await expect.poll(() => plain(lastFrame())).toMatch(/NEW Fine p1/);
    turn(['p1']); // still failing: no new bell
    turn(['p1', 'p2']);
    stop();
    expect(bells).toBe(2);
  });
});

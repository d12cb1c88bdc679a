// The board's row of a cron job (docs/console.md, "Heartbeats"): when its next ping is
// due, or since when its run is going, at 80 and 120 columns; the NEXT PING column is
// not drawn on a board without heartbeats. Frames of a real store.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleStore } from '../../src/store/create-store.js';
import type { CheckStatus } from '../../src/store/types.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

function board(cols: number, rows: number, checks: CheckStatus[]) {
  const store = createConsoleStore({ label: 'prod', refreshMs: 60_000 });
  store.getState().setSize(cols, rows);
  store.getState().applyStatuses(checks, sampleSummary({ totalChecks: checks.length }), Date.now());
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
  );
  unmount = view.unmount;
  return () => plain(view.lastFrame()).split('\n');
}

const jobs = [
  sampleStatus('backup', {
    checkName: 'Nightly backup',
    checkType: 'heartbeat',
    nextPingDue: '2026-11-29T03:10:00.000Z',
    group: null,
  }),
  sampleStatus('report', {
    checkName: 'Weekly report',
    checkType: 'heartbeat',
    nextPingDue: '2026-11-30T06:00:00.000Z',
    runningSince: '2026-11-29T03:00:02.000Z',
    group: null,
  }),
  sampleStatus('api', { checkName: 'API', group: null }),
];

describe("the board's heartbeat rows", () => {
  it.each([
    [80, 24],
    [120, 40],
  ])('at %ix%i say when the next ping is due, or since when the job runs', async (cols, rows) => {
    const lines = board(cols, rows, jobs);
    await expect.poll(() => lines().join('\n')).toContain('NEXT PING');
    const row = (name: string) => lines().find((l) => l.includes(name))!;
    expect(row('Nightly backup')).toContain('due 03:10');
    expect(row('Weekly report')).toContain('running since 03:00');
    expect(row('API')).not.toMatch(/due|running/);
    for (const l of lines()) expect(l.length).toBeLessThanOrEqual(cols);
  });

  it('draws no NEXT PING column on a board without heartbeats', async () => {
    const lines = board(120, 40, [jobs[2]!]);
    await expect.poll(() => lines().join('\n')).toContain('API');
    expect(lines().join('\n')).not.toContain('NEXT PING');
  });
});

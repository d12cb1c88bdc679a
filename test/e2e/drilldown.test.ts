// From "something is red" to the location, assertion and phase, in a real terminal.
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
afterEach(() => term?.kill());

const selected = (screen: string) => screen.split('\n').find((l) => l.startsWith('›')) ?? '';

describe.skipIf(!hasTmux)('drill-down in tmux', () => {
  it('board -> failing check -> failed result with timing and assertion, n/p, esc back to the same row', async () => {
    term = startTerminal(`${process.execPath} bin/checkwall.js demo --refresh 2`, { cols: 120, rows: 40 });
    // Wait until the regional outage shows as failing on the board, then select it with the filter.
    await term.waitFor(/FAILING\s+!?\s*Checkout \(regional/, 30_000);
    term.sendKeys('/');
    term.type('regional');
    await term.waitFor('/regional');
    term.sendKeys('Enter');
    await expect.poll(() => selected(term!.capture())).toContain('Checkout (regional');
    const boardRow = selected(term.capture());

    term.sendKeys('F'); // one keystroke: the latest failed result
    let screen = await term.waitFor('Timing');
    expect(screen).toContain('FAILED');
    expect(screen).toContain('First byte');
    expect(screen).toContain('TCP connect');
    expect(screen).toContain('STATUS_CODE equals 200, got 502');
    expect(screen).toContain('Singapore (ap-south)');
    expect(screen).not.toContain('TLS handshake'); // plain HTTP has no tls phase

    const firstAt = /\d\d:\d\d:\d\d UTC/.exec(screen)?.[0];
    term.sendKeys('n');
    await expect
      .poll(() => /\d\d:\d\d:\d\d UTC.*/.exec(term!.capture())?.[0] + selectedLocation(term!.capture()))
      .not.toBe(firstAt + selectedLocation(screen));
    term.sendKeys('p');

    term.sendKeys('Escape');
    screen = await term.waitFor('only this location fails');
    expect(screen).toMatch(/Singapore \(ap-south\)\s+(✖ FAILING|▲ DEGRADED)/);
    term.sendKeys('Escape');
    await term.waitFor('STATUS');
    await expect.poll(() => selected(term!.capture()).slice(0, 40)).toBe(boardRow.slice(0, 40));
  }, 90_000);

  it('rates a check’s metrics', async () => {
    term = startTerminal(`${process.execPath} bin/checkwall.js demo --refresh 2`, { cols: 140, rows: 50 });
    await term.waitFor(/passing\s+Search API|DEGRADED\s+Search API/, 30_000);
    term.sendKeys('/');
    term.type('search');
    await term.waitFor('/search');
    term.sendKeys('Enter');
    await expect.poll(() => selected(term!.capture())).toContain('Search API');
    term.sendKeys('m');
    // The demo's /slow answers in 650-800 ms (fair); on a loaded machine a run can pass 1 s (poor).
    const screen = await term.waitFor(/Average response time\s+\d+\.\d+\s+(fair|poor)/, 20_000);
    expect(screen).toContain('Metrics: api');
    expect(screen).toMatch(/Success rate\s+100\.00\s+good/);
  }, 90_000);
});

function selectedLocation(screen: string): string {
  return /at (\S+ \([a-z-]+\))/.exec(screen)?.[1] ?? '';
}

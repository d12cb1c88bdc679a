// A channel test's exchange under the list (T): the body sent and the answer share the
// panel's rows by what each needs, each wrapped under itself beside its label.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertNotification } from '../../src/api/schemas/index.js';
import { createTheme, ThemeContext } from '../../src/ui/theme.js';
import { shareRows, TestExchange } from '../../src/ui/views/channels/test-exchange.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');

const outcome = (sentBody: string, body: string): AlertNotification => ({
  id: 'n1',
  event: 'test',
  status: 'sent',
  channel: { id: 3, name: 'Incident bot', type: 'WEBHOOK' },
  check: null,
  alertId: null,
  attempts: 1,
  lastError: null,
  createdAt: '2026-11-30T02:21:38.014Z',
  sentAt: '2026-11-30T02:21:38.014Z',
  nextAttemptAt: null,
  sentBody,
  answer: { status: 200, body },
});

describe('the exchange of a channel test', () => {
  it('shares its rows by need: a one-line answer leaves the body sent the rest', () => {
    expect(shareRows(7, 4, 1)).toEqual([4, 3]);
    expect(shareRows(7, 9, 1)).toEqual([6, 1]);
    expect(shareRows(7, 1, 9)).toEqual([1, 6]);
    expect(shareRows(7, 9, 9)).toEqual([3, 4]);
    expect(shareRows(2, 5, 5)).toEqual([1, 1]);
  });

  it('draws the whole body sent when it and the answer fit, wrapped beside its label (80 columns)', () => {
    // Four lines of 72 columns: cut at three under an even split of seven rows.
    const body = `{"event":"test",${Array.from({ length: 24 }, (_, i) => `"k${String(i).padStart(2, '0')}":"v"`).join(',')},"end":"the last words"}`;
    const view = render(
      <ThemeContext.Provider value={createTheme({ color: false, ascii: false })}>
        <TestExchange outcome={outcome(body, '{"ok":true}')} channel={undefined} cols={80} rows={7} />
      </ThemeContext.Provider>,
    );
    unmount = view.unmount;
    const lines = plain(view.lastFrame()).split('\n');
    expect(lines.join('\n')).toContain('"end":"the last words"}');
    expect(lines[0]).toMatch(/^Sent {4}\{"event":"test"/);
    // The body goes on under itself, not under its label.
    expect(lines[1]).toMatch(/^ {8}\S/);
    expect(lines.find((l) => l.startsWith('Answer'))).toBe('Answer  HTTP 200 {"ok":true}');
  });
});

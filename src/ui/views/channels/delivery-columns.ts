// The channels list's delivery columns: what a channel serves, its last
// delivery (or the test just sent, in place), and its failures in 24 h in red.
import { formatAge } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { ChannelTest } from '../../../store/alerts-slice.js';
import type { AlertChannel } from '../../../store/types.js';
import type { Theme } from '../../theme.js';
import type { Cell, Column } from '../../widgets/table/layout.js';

export function subscribedText(c: AlertChannel): string {
  const s = c.subscriptions;
  if (!s) return '?';
  const parts = [...s.groups.map((g) => `group:${g}`), ...s.checks];
  return parts.length === 0 ? 'nothing' : parts.join(', ');
}

export function testText(test: ChannelTest): { text: string; color: string } {
  if (test.state === 'sending') return { text: 'testing…', color: 'yellow' };
  if (test.state === 'error') return { text: `test not sent: ${test.error.message}`, color: 'red' };
  const o = test.outcome;
  return o.status === 'sent'
    ? { text: 'test sent', color: 'green' }
    : { text: `test ${o.status}: ${o.lastError ?? ''}`.trim(), color: 'red' };
}

const STATUS_COLOR: Record<string, string> = { sent: 'green', failed: 'red', pending: 'yellow' };

export function lastCell(c: AlertChannel, now: number, theme: Theme, test: ChannelTest | undefined): Cell {
  if (test) return testText(test);
  const last = c.lastDelivery;
  if (!last) return { text: 'none yet', color: theme.dim };
  return {
    text: `${sanitize(last.event)} ${last.status} ${formatAge(last.at, now)}`,
    color: STATUS_COLOR[last.status],
  };
}

export function deliveryColumns(
  theme: Theme,
  now: number,
  tests: Readonly<Record<number, ChannelTest>>,
): Column<AlertChannel>[] {
  return [
    {
      key: 'subscribed',
      title: 'SUBSCRIBED',
      width: 16,
      max: 40,
      priority: 2,
      cell: (c) => ({ text: sanitize(subscribedText(c)) }),
    },
    {
      key: 'last',
      title: 'LAST DELIVERY',
      width: 20,
      max: 40,
      priority: 1,
      cell: (c) => lastCell(c, now, theme, tests[c.id]),
    },
    {
      key: 'failures',
      title: 'FAIL 24H',
      width: 8,
      align: 'right',
      priority: 2,
      cell: (c) => {
        const n = c.failures24h ?? 0;
        return { text: String(n), color: n > 0 ? 'red' : theme.dim, bold: n > 0 };
      },
    },
  ];
}

// The alert channels table's columns: id, type, name, where it delivers (masked until
// revealed), the last delivery and failures (delivery-columns.ts), its grouping window
// (why a page waited), its age.
import { formatAge } from '../../../domain/format.js';
import { groupWindowOf, groupWindowText } from '../../../domain/group-window.js';
import { channelTarget, MASK, maskConfig } from '../../../domain/mask.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { AlertChannel } from '../../../store/types.js';
import type { Theme } from '../../theme.js';
import type { Column } from '../../widgets/table/layout.js';
import { deliveryColumns } from './delivery-columns.js';

export function channelColumns(
  theme: Theme,
  {
    now,
    tests,
    revealed,
  }: { now: number; tests: Parameters<typeof deliveryColumns>[2]; revealed: number | null },
): Column<AlertChannel>[] {
  const mask = theme.ascii ? '***' : MASK;
  return [
    { key: 'id', title: 'ID', width: 4, align: 'right', priority: 0, cell: (c) => ({ text: String(c.id) }) },
    { key: 'type', title: 'TYPE', width: 7, max: 22, priority: 0, cell: (c) => ({ text: dialectText(c) }) },
    {
      key: 'name',
      title: 'NAME',
      width: 18,
      max: 32,
      priority: 1,
      cell: (c) => ({ text: sanitize(c.name) }),
    },
    {
      key: 'target',
      title: 'TARGET',
      width: 24,
      max: 48,
      flex: true,
      priority: 1,
      cell: (c) => ({
        text: sanitize(channelTarget(c.type, maskConfig(c.type, c.config, c.id === revealed, mask))),
        color: c.id === revealed ? 'yellow' : undefined,
      }),
    },
    ...deliveryColumns(theme, now, tests),
    {
      key: 'group',
      title: 'GROUP',
      width: 5,
      align: 'right',
      priority: 3,
      cell: (c) => {
        const seconds = groupWindowOf(c);
        return { text: groupWindowText(seconds), color: seconds === 0 ? theme.dim : undefined };
      },
    },
    {
      key: 'created',
      title: 'CREATED',
      width: 7,
      align: 'right',
      priority: 3,
      cell: (c) => ({ text: formatAge(c.createdAt, now) }),
    },
    {
      key: 'updated',
      title: 'UPDATED',
      width: 7,
      align: 'right',
      priority: 4,
      cell: (c) => ({ text: formatAge(c.updatedAt, now) }),
    },
  ];
}

/** The type and, for a CHAT or WEBHOOK channel that speaks one, its dialect: `WEBHOOK · pagerduty`. */
export function dialectText(c: Pick<AlertChannel, 'type' | 'config'>): string {
  const dialect =
    c.type === 'CHAT' ? c.config['service'] : c.type === 'WEBHOOK' ? c.config['format'] : undefined;
  return typeof dialect === 'string' && dialect ? `${c.type} · ${sanitize(dialect)}` : c.type;
}

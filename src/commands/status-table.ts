// The plain table `checkwall status` prints: sanitised, sized to the width,
// coloured only when asked.
import type { CheckStatus, StatusSummary } from '../api/schemas/index.js';
import { formatPercent, formatResponseTime, NO_DATA } from '../domain/format.js';
import { SEVERITY } from '../domain/order.js';
import { fit, sanitize } from '../domain/sanitize.js';
import { GAP, layoutColumns, type Column } from '../ui/widgets/table/layout.js';

const COLOR: Record<CheckStatus['status'], string> = {
  failing: '31',
  degraded: '33',
  unknown: '90',
  passing: '32',
};

const COLUMNS: Column<CheckStatus>[] = [
  {
    key: 'status',
    title: 'STATUS',
    width: 8,
    priority: 0,
    cell: (c) => ({ text: c.awaitingFirstPing ? 'waiting' : c.status }),
  },
  {
    key: 'name',
    title: 'NAME',
    width: 20,
    // Whole up to 32 before the failing locations appear: at 80 columns both fit.
    max: 32,
    priority: 1,
    cell: (c) => ({ text: sanitize(c.checkName) }),
  },
  { key: 'type', title: 'TYPE', width: 9, priority: 5, cell: (c) => ({ text: sanitize(c.checkType) }) },
  {
    key: 'availability',
    title: 'AVAIL',
    width: 7,
    align: 'right',
    priority: 2,
    cell: (c) => ({ text: formatPercent(c.availability.percentage, 2) }),
  },
  {
    key: 'p95',
    title: 'P95',
    width: 8,
    align: 'right',
    priority: 3,
    cell: (c) => ({ text: formatResponseTime(c.checkType, c.performance.p95ResponseTime) }),
  },
  {
    key: 'failing',
    title: 'FAILING LOCATIONS',
    width: 18,
    max: 60,
    flex: true,
    priority: 4,
    // Failing ones first and plain, so a narrow column cut at its end loses degraded ones first.
    cell: (c) => ({
      text: sanitize(
        [
          ...c.locations.filter((l) => l.status === 'failing').map((l) => l.id),
          ...c.locations.filter((l) => l.status === 'degraded').map((l) => `${l.id}(degraded)`),
        ].join(' '),
      ),
    }),
  },
];

export interface TableLook {
  color: boolean;
  /** Nothing outside ASCII from us: "-" for no data. */
  ascii?: boolean;
}

export function statusTable(checks: readonly CheckStatus[], width: number, look: TableLook): string {
  const { color, ascii = false } = look;
  const columns = layoutColumns(COLUMNS, width, checks);
  const gap = ' '.repeat(GAP);
  const sorted = [...checks].sort(
    (a, b) => SEVERITY[a.status] - SEVERITY[b.status] || a.checkName.localeCompare(b.checkName),
  );
  const head = columns
    .map((c) => fit(c.title, c.w, '~', c.align))
    .join(gap)
    .trimEnd();
  const body = sorted.map((check) =>
    columns
      .map((c) => {
        const cell = c.cell(check).text;
        const text = fit(ascii && cell === NO_DATA ? '-' : cell, c.w, '~', c.align);
        return color && c.key === 'status' ? `\u001b[${COLOR[check.status]}m${text}\u001b[0m` : text;
      })
      .join(gap)
      .trimEnd(),
  );
  return [head, ...body].join('\n');
}

/** "3 checks: 1 failing, 0 degraded, 0 unknown, 2 passing (filter status:failing)": of what was selected. */
export function countsLine(summary: StatusSummary, dashboard: string | undefined, filter: string): string {
  const unknown = Math.max(0, summary.totalChecks - summary.passing - summary.failing - summary.degraded);
  const scope = [
    dashboard === undefined ? '' : `dashboard ${sanitize(dashboard)}`,
    filter.trim() ? `filter ${sanitize(filter.trim())}` : '',
  ].filter(Boolean);
  const counts = `${summary.failing} failing, ${summary.degraded} degraded, ${unknown} unknown, ${summary.passing} passing`;
  const noun = summary.totalChecks === 1 ? 'check' : 'checks';
  return `${summary.totalChecks} ${noun}: ${counts}${scope.length ? ` (${scope.join(', ')})` : ''}`;
}

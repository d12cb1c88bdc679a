// The board's columns, each with its priority (the table's one rule, in
// widgets/table/layout.ts): status, the check's name (whole, up to 40 cells),
// the incident and location marks and HOLD survive 80 columns; the reason, tags
// and group drop first, before the name is ever cut.
import type { SortKey } from '../../../domain/order.js';
import { neverRan } from '../../../store/selectors.js';
import type { CheckStatus } from '../../../store/types.js';
import { formatAgeStep, formatMs, formatPercent, formatResponseTime } from '../../../domain/format.js';
import { displayWidth, sanitize } from '../../../domain/sanitize.js';
import { shown, type Theme } from '../../theme.js';
import type { Column } from '../../widgets/table/layout.js';
import { holdCell, held } from './hold.js';
import { whyNoPage } from './no-page.js';
import { heartbeatCell } from '../../../domain/heartbeat-words.js';

const SORTED_COLUMN: Record<SortKey, string> = {
  status: 'status',
  name: 'name',
  type: 'type',
  availability: 'availability',
  responseTime: 'avg',
  p95: 'p95',
  lastRun: 'last',
};

export interface BoardSort {
  key: SortKey;
  descending: boolean;
}

export function boardColumns(
  theme: Theme,
  now: number,
  maxLocations: number,
  sort: BoardSort,
  /** A dashboard's check_list with showLastResult: the last run's outcome and time, not only its age. */
  lastResult = false,
  /** In the console's warm-up a check that never ran is starting, not unknown (selectFirstRuns). */
  firstRuns = false,
): Column<CheckStatus>[] {
  const columns = allColumns(theme, now, maxLocations, firstRuns).map((c) =>
    c.key === 'last' && lastResult ? lastResultColumn(theme, now) : c,
  );
  const arrow = sort.descending ? (theme.ascii ? 'v' : '↓') : theme.ascii ? '^' : '↑';
  return columns.map((c) => (c.key === SORTED_COLUMN[sort.key] ? { ...c, title: `${c.title}${arrow}` } : c));
}

function allColumns(
  theme: Theme,
  now: number,
  maxLocations: number,
  firstRuns: boolean,
): Column<CheckStatus>[] {
  return [
    ...whatColumns(theme, firstRuns),
    ...figureColumns(theme),
    ...whenWhereColumns(theme, now, maxLocations),
  ];
}

/** What the check is and how it is. */
function whatColumns(theme: Theme, firstRuns: boolean): Column<CheckStatus>[] {
  const starting = { glyph: theme.ellipsis, word: 'STARTING', color: theme.accent };
  const status = (c: CheckStatus) => (firstRuns && neverRan(c) ? starting : theme.status[c.status]);
  return [
    {
      key: 'status',
      title: 'STATUS',
      width: 10,
      priority: 0,
      cell: (c) => ({
        text: `${status(c).glyph} ${status(c).word}`,
        color: status(c).color,
        bold: c.status !== 'passing',
      }),
    },
    {
      key: 'incident',
      title: theme.incident,
      width: 1,
      priority: 2,
      // A page that never went out outranks the incident mark: it is an incident of its own.
      cell: (c) => ({
        text: undelivered(c) ? theme.undelivered : c.currentIncident ? theme.incident : ' ',
        color: 'red',
        bold: true,
      }),
    },
    {
      key: 'name',
      title: 'CHECK',
      width: 18,
      max: 40,
      flex: true,
      priority: 1,
      measure: (c) => displayWidth(c.checkName),
      cell: (c) => ({ text: sanitize(c.checkName) }),
    },
    {
      key: 'type',
      title: 'TYPE',
      width: 9,
      priority: 7,
      cell: (c) => ({ text: sanitize(c.checkType), color: theme.dim }),
    },
  ];
}

/** Its figures over the period. */
function figureColumns(theme: Theme): Column<CheckStatus>[] {
  return [
    {
      key: 'availability',
      title: 'AVAIL',
      width: 7,
      align: 'right',
      priority: 3,
      cell: (c) => ({
        text: shown(
          theme,
          formatPercent(
            c.availability.percentage,
            c.availability.percentage !== null && c.availability.percentage >= 99.995 ? 0 : 2,
          ),
        ),
      }),
    },
    {
      key: 'avg',
      title: 'AVG',
      width: 7,
      align: 'right',
      priority: 5,
      cell: (c) => ({
        text: shown(theme, formatResponseTime(c.checkType, c.performance.averageResponseTime)),
      }),
    },
    {
      key: 'p95',
      title: 'P95',
      width: 7,
      align: 'right',
      priority: 6,
      cell: (c) => ({ text: shown(theme, formatResponseTime(c.checkType, c.performance.p95ResponseTime)) }),
    },
    {
      key: 'trend',
      title: 'TR',
      width: 2,
      priority: 8,
      cell: (c) => ({
        text: theme.trend[c.performance.trend],
        color: c.performance.trend === 'degrading' ? 'yellow' : undefined,
      }),
    },
  ];
}

/** When it last ran, where, and how it is filed. */
function whenWhereColumns(theme: Theme, now: number, maxLocations: number): Column<CheckStatus>[] {
  return [
    {
      key: 'last',
      title: 'LAST',
      width: 5,
      align: 'right',
      priority: 4,
      cell: (c) => ({
        text: shown(theme, formatAgeStep(c.lastExecution?.timestamp ?? null, now)),
        color: c.lastExecution?.status === 'failed' ? 'red' : undefined,
      }),
    },
    {
      key: 'locations',
      title: 'LOC',
      width: Math.max(3, Math.min(8, maxLocations)),
      priority: 2,
      cell: (c) => ({
        text: c.locations
          .slice(0, 8)
          .map((l) => theme.mark[l.status])
          .join(''),
        color: worst(c),
      }),
    },
    {
      // A silenced or paused check says so at 80 columns (only when some check is held).
      key: 'hold',
      title: 'HOLD',
      width: 5,
      max: 16,
      priority: 2,
      // Most checks are held by nothing: no cell is built to learn that.
      measure: (c) => (held(c) ? displayWidth(holdCell(c, theme, now).text) : 0),
      cell: (c) => holdCell(c, theme, now),
    },
    {
      // A cron job's next ping, or the run under way (only when some heartbeat has one).
      key: 'ping',
      title: 'NEXT PING',
      width: 9,
      max: 19,
      priority: 4,
      measure: (c) => displayWidth(heartbeatCell(c) ?? ''),
      cell: (c) => ({ text: heartbeatCell(c) ?? '', color: c.runningSince ? 'cyan' : theme.dim }),
    },
    {
      key: 'group',
      title: 'GROUP',
      width: 10,
      max: 24,
      priority: 9,
      measure: (c) => displayWidth(c.group?.name ?? ''),
      cell: (c) => ({ text: sanitize(c.group?.name ?? ''), color: theme.dim }),
    },
    {
      key: 'tags',
      title: 'TAGS',
      width: 12,
      max: 30,
      priority: 10,
      measure: (c) => c.tags.reduce((n, t) => n + displayWidth(t) + 1, -1),
      cell: (c) => ({ text: sanitize(c.tags.join(',')), color: theme.dim }),
    },
    {
      // Why the status is what it is, where there is room for it: the first to go.
      key: 'reason',
      title: 'REASON',
      width: 32,
      max: 64,
      priority: 11,
      measure: (c) => {
        const noPage = whyNoPage(c);
        return displayWidth(c.statusReason ?? '') + (noPage ? noPage.length + 2 : 0);
      },
      cell: (c) => {
        const noPage = whyNoPage(c);
        const why = [sanitize(c.statusReason ?? ''), noPage ?? ''].filter(Boolean).join('; ');
        return { text: why, color: noPage ? 'red' : theme.dim };
      },
    },
  ];
}

function lastResultColumn(theme: Theme, now: number): Column<CheckStatus> {
  return {
    key: 'last',
    title: 'LAST RESULT',
    width: 17,
    priority: 2,
    cell: (c) => {
      const run = c.lastExecution;
      if (!run) return { text: 'never ran', color: theme.dim };
      const look = run.status === 'failed' ? theme.status.failing : theme.status.passing;
      // A heartbeat's run is a ping: when it came, not how long it took.
      const took = c.checkType === 'heartbeat' ? '' : `${shown(theme, formatMs(run.responseTime))} `;
      return {
        text: `${look.glyph} ${took}${shown(theme, formatAgeStep(run.timestamp, now))}`,
        color: look.color,
      };
    },
  };
}

function worst(c: CheckStatus): string | undefined {
  if (c.locations.some((l) => l.status === 'failing')) return 'red';
  if (c.locations.some((l) => l.status === 'degraded')) return 'yellow';
  return c.locations.every((l) => l.status === 'passing') ? 'green' : undefined;
}

/** A failing check whose alert could not be delivered to some channel. */
export const undelivered = (c: CheckStatus): boolean =>
  c.status === 'failing' && (c.currentAlert?.undelivered ?? 0) > 0;

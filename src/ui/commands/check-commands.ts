// Commands of the check, result and metrics views.
import {
  DEFAULT_FILTERS,
  findResult,
  PERIOD_CYCLE,
  RT_PRESETS,
  topView,
  type ResultFilters,
} from '../../store/detail-slice.js';
import { CHECK_TYPES, METRIC_CATEGORIES, TRIGGERS } from '../../store/types.js';
import { state, type CommandContext, type Handlers } from './context.js';
import { selectBodyHeight } from '../body-height.js';
import { metricsScrollEnd } from '../views/metrics/metrics-view.js';
import { resultScrollEnd } from '../views/result-detail/result-room.js';

/** The check view on top (the check commands are bound on it alone). */
const checkView = (ctx: CommandContext) => topView(state(ctx), 'check');
const filters = (ctx: CommandContext) => checkView(ctx)?.filters ?? DEFAULT_FILTERS;
const setFilters = (ctx: CommandContext, patch: Partial<ResultFilters>) => state(ctx).setResultFilters(patch);

/** The value after `current` in `cycle`, where undefined means "any" and comes last. */
export function nextIn<T>(cycle: readonly T[], current: T | undefined): T | undefined {
  const all = [...cycle, undefined];
  return all[(all.indexOf(current) + 1) % all.length];
}

/** The furthest the open result scrolls: its last line at the view's foot. */
const resultEnd = (ctx: CommandContext) => resultScrollEnd(state(ctx), selectBodyHeight(state(ctx)));
/** The furthest the metric catalogue scrolls. */
const metricsEnd = (ctx: CommandContext) => metricsScrollEnd(state(ctx), selectBodyHeight(state(ctx)));

export function openMetrics(ctx: CommandContext, checkId: string | null) {
  const s = state(ctx);
  const check = checkId ? s.checks[checkId] : undefined;
  const type =
    check && (CHECK_TYPES as readonly string[]).includes(check.checkType) ? check.checkType : s.metricsType;
  s.setMetricsScope(type, s.metricsCategory);
  s.openMetrics(check?.checkId ?? null);
}

/** The open result's screenshot, when it has one; without colour only saving is offered. */
function askScreenshot(ctx: CommandContext, wish: 'show' | 'save') {
  const s = state(ctx);
  const view = topView(s, 'result');
  const result = view && findResult(s.detail, view.resultId);
  if (!view || !result?.hasScreenshot) return;
  if (wish === 'show' && !pictureAllowed(s.session)) return;
  s.askScreenshot(view.checkId, result.id, wish);
}

export const pictureAllowed = (session: { color: boolean; ascii: boolean }) =>
  session.color && !session.ascii;

export const CHECK_HANDLERS = {
  'check.open': (ctx) => state(ctx).openResult(),
  'check.period': (ctx) =>
    setFilters(ctx, { period: nextIn(PERIOD_CYCLE, filters(ctx).period) ?? PERIOD_CYCLE[0]! }),
  'check.status': (ctx) =>
    setFilters(ctx, { status: nextIn(['failed', 'success'] as const, filters(ctx).status) }),
  'check.location': (ctx) => {
    const check = state(ctx).checks[checkView(ctx)?.checkId ?? ''];
    setFilters(ctx, { location: nextIn(check?.locations.map((l) => l.id) ?? [], filters(ctx).location) });
  },
  'check.trigger': (ctx) => setFilters(ctx, { triggeredBy: nextIn(TRIGGERS, filters(ctx).triggeredBy) }),
  'check.range': (ctx) => {
    const at = RT_PRESETS.indexOf(filters(ctx).responseTimeMin);
    setFilters(ctx, { responseTimeMin: RT_PRESETS[(at + 1) % RT_PRESETS.length] });
  },
  'check.sort': (ctx) =>
    setFilters(ctx, {
      sortBy: nextIn(['startedAt', 'duration', 'responseTime'] as const, filters(ctx).sortBy) ?? 'startedAt',
    }),
  'check.reverse': (ctx) =>
    setFilters(ctx, { sortOrder: filters(ctx).sortOrder === 'desc' ? 'asc' : 'desc' }),
  'check.nextPage': (ctx) => {
    const page = state(ctx).detail.page;
    const total = page.state === 'ok' ? page.data.meta.totalPages : 1;
    if (filters(ctx).page < total) setFilters(ctx, { page: filters(ctx).page + 1 });
  },
  'check.prevPage': (ctx) => {
    if (filters(ctx).page > 1) setFilters(ctx, { page: filters(ctx).page - 1 });
  },
  'check.metrics': (ctx) => openMetrics(ctx, checkView(ctx)?.checkId ?? null),
  'check.deliveries': (ctx) =>
    state(ctx).updateView('check', { allDeliveries: !(checkView(ctx)?.allDeliveries ?? false) }),
  'result.screenshot': (ctx) => askScreenshot(ctx, 'show'),
  'result.saveScreenshot': (ctx) => askScreenshot(ctx, 'save'),
  'result.next': (ctx) => state(ctx).stepResult(1),
  'result.prev': (ctx) => state(ctx).stepResult(-1),
  'result.down': (ctx) => state(ctx).scrollBody(1, resultEnd(ctx)),
  'result.up': (ctx) => state(ctx).scrollBody(-1, resultEnd(ctx)),
  'result.pageDown': (ctx) => state(ctx).scrollBody(ctx.pageSize, resultEnd(ctx)),
  'result.pageUp': (ctx) => state(ctx).scrollBody(-ctx.pageSize, resultEnd(ctx)),
  'metrics.type': (ctx) => {
    const s = state(ctx);
    s.setMetricsScope(nextIn(CHECK_TYPES, s.metricsType) ?? CHECK_TYPES[0], s.metricsCategory);
  },
  'metrics.category': (ctx) => {
    const s = state(ctx);
    s.setMetricsScope(s.metricsType, nextIn(METRIC_CATEGORIES, s.metricsCategory ?? undefined) ?? null);
  },
  'metrics.down': (ctx) => state(ctx).scrollBody(1, metricsEnd(ctx)),
  'metrics.up': (ctx) => state(ctx).scrollBody(-1, metricsEnd(ctx)),
} satisfies Handlers;

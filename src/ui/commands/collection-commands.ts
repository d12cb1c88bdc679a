// Commands of the dashboards list, the alert channels list and the create form.
import { state, type Handler, type Handlers } from './context.js';

/** Form keys other than esc also answer "keep editing" to the discard question. */
const keep =
  (h: Handler): Handler =>
  (ctx) => {
    state(ctx).formKeep();
    h(ctx);
  };

export const COLLECTION_HANDLERS = {
  'dashboards.open': (ctx) => state(ctx).openDashboard(),
  'dashboards.tags': (ctx) => state(ctx).openDashboardTags(),
  'dashboards.privacy': (ctx) => state(ctx).cyclePrivacy(),
  'dashboards.nextPage': (ctx) => state(ctx).pageList('dashboards', 1),
  'dashboards.prevPage': (ctx) => state(ctx).pageList('dashboards', -1),
  'channels.new': (ctx) => state(ctx).openForm(),
  'channels.reveal': (ctx) => state(ctx).toggleReveal(),
  'channels.test': (ctx) => state(ctx).testSelectedChannel(),
  'channels.saveSecret': (ctx) => state(ctx).saveCreatedSecret(),
  'channels.grouping': (ctx) => state(ctx).askGrouping(),
  'channels.subscriptions': (ctx) => state(ctx).openSubscriptions(),
  'channelGrouping.apply': (ctx) => state(ctx).groupingApply(),
  'channelGrouping.cancel': (ctx) => state(ctx).groupingCancel(),
  'channelGrouping.erase': (ctx) => state(ctx).groupingErase(),
  'channels.nextPage': (ctx) => state(ctx).pageList('channels', 1),
  'channels.prevPage': (ctx) => state(ctx).pageList('channels', -1),
  'formType.down': (ctx) => state(ctx).formMoveType(1),
  'formType.up': (ctx) => state(ctx).formMoveType(-1),
  'formType.choose': (ctx) => state(ctx).formChooseType(),
  'formType.back': (ctx) => state(ctx).formEscape(),
  'form.next': keep((ctx) => state(ctx).formFocus(1)),
  'form.prev': keep((ctx) => state(ctx).formFocus(-1)),
  'form.submit': keep((ctx) => state(ctx).formSubmit()),
  'form.escape': (ctx) => state(ctx).formEscape(),
  'discard.yes': (ctx) => state(ctx).formEscape(),
  'discard.no': (ctx) => state(ctx).formKeep(),
  'form.erase': keep((ctx) => state(ctx).formErase()),
  'form.addHeader': keep((ctx) => state(ctx).formAddRow('headers')),
  'form.addQuery': keep((ctx) => state(ctx).formAddRow('queryParameters')),
  'form.removeRow': keep((ctx) => state(ctx).formRemoveRow()),
  'formSubs.pick': keep((ctx) => state(ctx).formOpenPicker()),
  'formChoice.next': keep((ctx) => state(ctx).formCycle(1)),
  'formChoice.prev': keep((ctx) => state(ctx).formCycle(-1)),
  'pick.down': (ctx) => state(ctx).pickMove(1),
  'pick.up': (ctx) => state(ctx).pickMove(-1),
  'pick.toggle': (ctx) => state(ctx).pickToggle(),
  'pick.search': (ctx) => state(ctx).pickSearch(),
  'pick.close': (ctx) => state(ctx).pickClose(),
  'pickSearch.apply': (ctx) => state(ctx).pickSearchDone(true),
  'pickSearch.clear': (ctx) => state(ctx).pickSearchDone(false),
  'pickSearch.erase': (ctx) => state(ctx).pickErase(),
} satisfies Handlers;

// The console's state as one type: each slice's state and actions, the session
// and the memos. Types only (and the session's defaults), and a slice's type
// lives here rather than in the slice's file, so a slice imports its own type and
// the whole state's from here without the two files importing each other; only
// create-store.ts imports every slice's code. Each slice file re-exports its
// types, so readers still import them from the slice they belong to.
import type { StoreApi } from 'zustand/vanilla';
import type { AuditEventList, CheckRun, Me } from '../api/schemas/actions.js';
import type { MaintenanceCreate, MaintenancePatch, MaintenanceWindow } from '../api/schemas/maintenance.js';
import type {
  AlertChannel,
  AlertChannelList,
  AlertNotification,
  AlertNotificationList,
  CheckHistoryList,
  CheckResult,
  CheckResultList,
  ChannelGrouping,
  CheckStatus,
  Subscriptions,
  Dashboard,
  DashboardList,
  MetricCatalogue,
  LocationOutage,
  Period,
  ServiceHealth,
  StatusSummary,
} from '../api/schemas/index.js';
import type { ChartCheck } from '../domain/dashboard-chart.js';
import type { SortKey } from '../domain/order.js';
import type { TierPlan } from '../domain/poll-tiers.js';
import type { UserCommand, UserScope } from '../domain/user-commands.js';
import type { ChannelForm, ListName as FormRowList } from './channel-form.js';
import type { RecordInfo } from './records.js';
import type { ErrorInfo, Focus, Remote, ResultFilters, Scope, View, ViewName, ViewOf } from './types.js';

// Runbooks, links, copy and the engineer's own commands (hands-slice.ts).
/** One entry of a menu: what it copies or opens. */
export interface HandsItem {
  label: string;
  /** The text copied, or the URL opened. */
  value: string;
  /** What enter does with it. */
  act: 'copy' | 'open';
}

export type HandsPanel =
  | { kind: 'menu'; title: string; items: HandsItem[]; at: number }
  | { kind: 'text'; title: string; text: string; at: number }
  | { kind: 'ask'; title: string; commandKey: string; scope: UserScope; at: number };

export interface HandsSlice {
  /** What the last copy or open did, until the next key. */
  handsNote: string | null;
  setHandsNote(note: string | null): void;
  handsPanel: HandsPanel | null;
  openHandsPanel(panel: HandsPanel): void;
  closeHandsPanel(): void;
  /** Moves a menu's selection, or scrolls a text. */
  /** Moves the menu's selection, or scrolls the text; `end` is the text's last top line. */
  moveHandsPanel(delta: number, end?: number): void;
  /** Set while one of the engineer's commands has the terminal, then until a key brings the console back. */
  suspended: string | null;
  setSuspended(message: string | null): void;
  /** The config file's `commands` (none under --public or on the wall). */
  userCommands: UserCommand[];
  setUserCommands(commands: UserCommand[]): void;
}

// Acting on a check (check-actions-slice.ts).
export type CheckActionKind = 'run' | 'pause' | 'resume';

interface Ask {
  kind: CheckActionKind;
  checkId: string;
  checkName: string;
  /** Where a run now runs: every location of the check. */
  locations: number;
}

export type CheckAction =
  | { state: 'idle' }
  | ({ state: 'confirm' } & Ask)
  | ({ state: 'sending' } & Ask)
  | {
      state: 'done' | 'error';
      kind: CheckActionKind;
      checkId: string;
      /** Names the check: the line may be read from another check's view. */
      message: string;
      /** The store's clock at its last change: it goes ACTION_LINE_MS later (check-actions-slice.ts). */
      at: number;
    };

/** The runs of the last run now, followed until every one is done or skipped. */
export interface RunWatch {
  checkId: string;
  checkName: string;
  runs: CheckRun[];
  /** Result ids in the order they landed: the last is the newest. */
  landed: string[];
  finished: boolean;
}

export type ActionAnswer =
  | { kind: 'run'; runs: CheckRun[] }
  | { kind: 'pause' | 'resume'; status: CheckStatus; note?: string | undefined };

export interface CheckActionsSlice {
  checkAction: CheckAction;
  /** Why the last key pressed did not act (its role, or nothing to act on), until the next key. */
  keyRefusal: string | null;
  /** The store's clock when keyRefusal was said: it goes ACTION_LINE_MS later. */
  keyRefusalAt: number;
  /** Says why a key did not act; null takes it away. */
  refuseKey(message: string | null): void;
  runWatch: RunWatch | null;
  /** Bumped when an action changed something: the results and the audit trail are read again. */
  actionsVersion: number;
  /** Asks before running `checkId` now at each of its locations. */
  askRunNow(checkId: string | null): void;
  /** Asks before pausing `checkId`, or resuming it when a person paused it. */
  askPauseResume(checkId: string | null): void;
  answerCheckAction(yes: boolean): void;
  checkActionDone(outcome: Outcome<ActionAnswer>): void;
  /** The batch read of the watched runs. */
  applyRuns(runs: readonly CheckRun[]): void;
}

// `M`: a maintenance window from the console (silence-slice.ts).
/** What a window started here covers, and how the prompt names it. */
export interface SilenceTarget {
  label: string;
  scope: { checks: string[] } | { groups: string[] };
}

export interface SilenceAsk {
  targets: SilenceTarget[];
  target: number;
  step: 'duration' | 'reason';
  durationText: string;
  reasonText: string;
  error: string | null;
}

export type SilenceState =
  | { state: 'idle' }
  | ({ state: 'ask' } & SilenceAsk)
  | ({ state: 'sending'; body: MaintenanceCreate } & SilenceAsk)
  | { state: 'done'; message: string; ok: boolean };

export interface SilenceSlice {
  silence: SilenceState;
  /** Bumped after a window is started, changed or ended: the statuses are read again at once. */
  maintenanceVersion: number;
  /** `M`: asks how long and why, or says why it cannot. */
  askSilence(): void;
  silenceType(text: string): void;
  silenceErase(): void;
  silenceNextTarget(): void;
  /** Enter: the next step, or the request. */
  silenceEnter(): void;
  /** Esc: from the reason back to how long; from there, no window. */
  silenceBack(): void;
  silenceDone(outcome: { ok: true; window: MaintenanceWindow } | { ok: false; error: ErrorInfo }): void;
  dismissSilence(): void;
}

// The windows on screen (windows-slice.ts).
/** What is asked of the selected window, and how it went. */
export type WindowAction =
  | { state: 'idle' }
  | { state: 'confirm'; id: string; name: string; cancel: boolean }
  | { state: 'extend'; id: string; name: string; endsAt: string; text: string; error: string | null }
  | { state: 'sending'; id: string; name: string; change: { patch: MaintenancePatch } | { delete: true } }
  | { state: 'done'; message: string; ok: boolean };

export interface WindowsSlice {
  /** The window over the open check, by the id its status names. */
  checkWindow: { id: string; remote: Remote<MaintenanceWindow> } | null;
  /** Active windows, then scheduled ones. */
  windows: Remote<MaintenanceWindow[]>;
  selectedWindowId: string | null;
  /** Bumped to read the list again at once. */
  windowsVersion: number;
  windowAction: WindowAction;
  setCheckWindow(id: string, remote: Remote<MaintenanceWindow>): void;
  setWindows(remote: Remote<MaintenanceWindow[]>): void;
  moveWindow(delta: number | 'first' | 'last'): void;
  /** `e`: asks before ending an active window (or cancelling a scheduled one). */
  askEndWindow(): void;
  answerEndWindow(yes: boolean): void;
  /** `+`: asks by how long. */
  askExtendWindow(): void;
  extendType(text: string): void;
  extendErase(): void;
  extendApply(): void;
  extendCancel(): void;
  windowActionDone(
    outcome: { ok: true; window: MaintenanceWindow | null } | { ok: false; error: ErrorInfo },
  ): void;
}

export interface NavSlice {
  stack: View[];
  focus: Focus;
  promptText: string;
  promptError: string | null;
  /** The first line of the ? overlay shown (it is longer than 24 rows). */
  helpScroll: number;
  cols: number;
  rows: number;
  now: number;
  pushView(view: View): void;
  popView(): void;
  replaceView(view: View): void;
  /** Changes the state of the topmost view called `name` (there may be none). */
  updateView<N extends ViewName>(name: N, patch: Partial<Omit<ViewOf<N>, 'name'>>): void;
  setFocus(focus: Focus): void;
  /** Moves the help by `delta` lines, within 0..`max`. */
  scrollHelp(delta: number, max: number): void;
  openPrompt(): void;
  setPrompt(text: string, error?: string | null): void;
  setSize(cols: number, rows: number): void;
  tick(now: number): void;
}

export type Phase = 'connecting' | 'live' | 'retrying' | 'paused';

export interface ConnectionSlice {
  phase: Phase;
  lastSuccessAt: number | null;
  lastError: ErrorInfo | null;
  nextRetryAt: number | null;
  polling: boolean;
  connected(at: number): void;
  failed(error: ErrorInfo, nextRetryAt: number): void;
  setPolling(polling: boolean): void;
  setPaused(paused: boolean): void;
}

export interface StatusChangeSet {
  changed: readonly CheckStatus[];
  removed: readonly string[];
  summary: StatusSummary | null;
  /** The service's own health (absent: the poll did not say; null: it does not report it). */
  service?: ServiceHealth | null | undefined;
  /** Locations declared down now (absent: the poll did not say). */
  locationOutages?: LocationOutage[] | undefined;
  tiers?: { plan: TierPlan; refreshMs: number } | undefined;
}

export interface BoardSlice {
  checks: Record<string, CheckStatus>;
  /** What is known of `checks` as a whole (records.ts), replaced with it. */
  checksInfo: RecordInfo;
  summary: StatusSummary | null;
  /** The service's word on its own health, from the statuses list; null when it gives none. */
  service: ServiceHealth | null;
  /** Locations the service declares down now (`meta.locationOutages`); empty when none or not said. */
  locationOutages: LocationOutage[];
  statusesAt: number | null;
  /** When the first statuses came: the first refresh interval after it is the warm-up (selectors.ts). */
  firstStatusesAt: number | null;
  filterText: string;
  filterErrors: string[];
  sortKey: SortKey;
  sortDesc: boolean;
  grouped: boolean;
  selectedId: string | null;
  /** Until the user moves the selection it follows the top row (the worst check) as data arrives. */
  selectionMoved: boolean;
  /** When each check last turned failing (seen by this console), for highlights and the bell. */
  turnedFailingAt: Record<string, number>;
  /** Checks that turned failing in the latest poll. */
  newlyFailing: string[];
  /** How the statuses are polled when the account is large (domain/poll-tiers.ts), else null. */
  statusTiers: { plan: TierPlan; refreshMs: number } | null;
  applyStatuses(checks: CheckStatus[], summary: StatusSummary | null, at: number): void;
  applyService(service: ServiceHealth | null): void;
  applyLocationOutages(outages: LocationOutage[]): void;
  /** A poll that brought only what changed (the poll worker's). */
  applyStatusChanges(changes: StatusChangeSet, at: number): void;
  setFilter(text: string): void;
  openFilter(): void;
  closeFilter(clear: boolean): void;
  cycleSort(): void;
  reverseSort(): void;
  toggleGrouping(): void;
  select(id: string | null): void;
  moveSelection(delta: number | 'first' | 'last'): void;
  nextFailing(): void;
}

export interface Detail {
  /** The check these results are of: an answer for another check is dropped. */
  checkId: string | null;
  page: Remote<CheckResultList>;
  window: Remote<CheckResultList>;
  latestFailed: CheckResult | null;
  /** The result a result view opened, kept while newer runs push it out of `page` and `window`. */
  opened: CheckResult | null;
}

export interface DetailSlice {
  detail: Detail;
  catalogue: Remote<MetricCatalogue>;
  metricsType: string;
  metricsCategory: string | null;
  openCheck(checkId: string, openFailed: boolean): void;
  /** The metric catalogue, rated for `checkId` when there is one. */
  openMetrics(checkId: string | null): void;
  setResultFilters(patch: Partial<ResultFilters>): void;
  applyResults(
    checkId: string,
    page: CheckResultList,
    window: CheckResultList,
    latestFailed: CheckResult | null,
    /** When they arrived, on the poller's clock. */
    at: number,
  ): void;
  resultsFailed(checkId: string, error: ErrorInfo): void;
  moveResult(delta: number | 'first' | 'last'): void;
  openResult(): void;
  stepResult(delta: 1 | -1): void;
  /** Scrolls the result or metrics view on top, between its first line and `end` (its last page). */
  scrollBody(delta: number, end: number): void;
  setCatalogue(c: Remote<MetricCatalogue>): void;
  setMetricsScope(type: string, category: string | null): void;
}

/** What every paged answer of the API has. */
export interface ListPage {
  data: Array<{ id: string | number }>;
  meta: { totalPages: number; totalItems: number };
}

export interface PageQuery {
  page: number;
}

export interface DashboardsQuery extends PageQuery {
  tags: string[];
  /** undefined: both private and public. */
  isPrivate: boolean | undefined;
}

export interface PagedList<P extends ListPage, Q extends PageQuery> {
  remote: Remote<P>;
  query: Q;
  /** Bumped to fetch the same query again at once (after a create). */
  version: number;
  selectedId: ItemOf<P>['id'] | null;
}

export type ItemOf<P extends ListPage> = P['data'][number];

/** Every paged list of the console. */
export interface Lists {
  channels: PagedList<AlertChannelList, PageQuery>;
  dashboards: PagedList<DashboardList, DashboardsQuery>;
}

export type ListName = keyof Lists;

export type QueryOf<N extends ListName> = Lists[N]['query'];

export interface PagedListSlice {
  lists: Lists;
  /** An answer: the selection stays on its item while listed, else goes to the first. */
  setList<N extends ListName>(name: N, remote: Lists[N]['remote']): void;
  moveInList(name: ListName, delta: number | 'first' | 'last'): void;
  /** Another page, within the pages there are. */
  pageList(name: ListName, delta: number): void;
  /** A new query (its feed fetches at once); `page` goes back to 1 unless given. */
  queryList<N extends ListName>(name: N, patch: Partial<QueryOf<N>>): void;
  /** Fetch again at once, on `page` with `selectedId` selected when given. */
  reloadList<N extends ListName>(name: N, at?: { page: number; selectedId: Lists[N]['selectedId'] }): void;
}

export type SubmitOutcome =
  | { ok: true; channel: AlertChannel }
  /** An edit's PUT (`s`): what the channel serves now. */
  | { ok: true; subscriptions: Subscriptions }
  | {
      ok: false;
      status?: number | undefined;
      error: ErrorInfo;
      details?: Array<{ path: string; message: string }> | undefined;
      /** An edit not sent: the channel's subscriptions changed since the form opened, to these. */
      changed?: Subscriptions | undefined;
    };

/**
 * A WEBHOOK's signing secret as the create answer gave it, whole: the service
 * never shows it again, so it stays on screen (and can be saved) until the
 * channels view is left.
 */
export interface CreatedSecret {
  channelId: number;
  name: string;
  secret: string;
  /** `o` asked for a file the feed still owes. */
  saving: boolean;
  saved: { ok: true; path: string } | { ok: false; message: string } | null;
}

/** `w` on a channel: its grouping window, asked for and sent (channel-grouping.ts). */
export type GroupingEdit =
  | { state: 'idle' }
  | ({ state: 'ask'; error: string | null } & GroupingAsk)
  | ({ state: 'sending'; seconds: number | null } & GroupingAsk)
  | { state: 'done'; ok: boolean; message: string };

export interface GroupingAsk {
  channelId: number;
  name: string;
  /** The window that applied when asked, in seconds. */
  was: number;
  /** Its type's default, what a blank sets. */
  fallback: number;
  text: string;
  /** The text is the channel's own, untouched: the first key typed replaces it, backspace clears it. */
  fresh: boolean;
}

export interface ChannelsSlice {
  revealedChannelId: number | null;
  grouping: GroupingEdit;
  /** `w`: asks for the selected channel's grouping window. */
  askGrouping(): void;
  groupingType(text: string): void;
  groupingErase(): void;
  groupingApply(): void;
  groupingCancel(): void;
  groupingDone(outcome: Outcome<ChannelGrouping>): void;
  /** The outcome stays on screen until the next key, as M's does. */
  dismissGrouping(): void;
  createdSecret: CreatedSecret | null;
  /** `o` on the channels: writes the secret just shown to a file readable only by you. */
  saveCreatedSecret(): void;
  createdSecretSaved(channelId: number, saved: NonNullable<CreatedSecret['saved']>): void;
  form: ChannelForm;
  moveChannel(delta: number | 'first' | 'last'): void;
  toggleReveal(): void;
  openForm(): void;
  /** `s`: the form, with the selected channel's subscriptions alone, to change and PUT. */
  openSubscriptions(): void;
  formMoveType(delta: number): void;
  formChooseType(): void;
  formType(text: string): void;
  formErase(): void;
  formFocus(delta: number): void;
  /** Moves the focused chooser (a CHAT service, a WEBHOOK format, a method) to its next or previous choice. */
  formCycle(delta: number): void;
  formAddRow(list: FormRowList): void;
  formRemoveRow(): void;
  /** On a subscription row: opens its list of checks or groups. */
  formOpenPicker(): void;
  pickMove(delta: number): void;
  pickToggle(): void;
  pickClose(): void;
  /** `/` in the list: typed text narrows it until enter (keeps) or esc (clears). */
  pickSearch(): void;
  pickType(text: string): void;
  pickErase(): void;
  pickSearchDone(keep: boolean): void;
  /** Any key but esc answers "keep editing" to the discard question. */
  formKeep(): void;
  formSubmit(): void;
  formEscape(): void;
  formDone(outcome: SubmitOutcome): void;
}

export interface AckAsk {
  alertId: string;
  checkId: string;
  checkName: string;
}

export interface AckAnswer {
  checkId: string;
  message: string;
}

export type AckState =
  | { state: 'idle' }
  | ({ state: 'confirm' } & AckAsk)
  | ({ state: 'sending' } & AckAsk)
  | ({ state: 'done' } & AckAnswer)
  | ({ state: 'error' } & AckAnswer);

export type ChannelTest =
  { state: 'sending' } | { state: 'done'; outcome: AlertNotification } | { state: 'error'; error: ErrorInfo };

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export interface AlertsSlice {
  /** The delivery log of the check on screen, newest first. */
  alertHistory: Remote<AlertNotificationList>;
  alertHistoryCheckId: string | null;
  /** Bumped to fetch the history again at once (after an acknowledgement). */
  alertHistoryVersion: number;
  ack: AckState;
  channelTests: Record<number, ChannelTest>;
  setAlertHistory(checkId: string, r: Remote<AlertNotificationList>): void;
  /** `a` on a check: asks before acknowledging its open alert, or says why there is none. */
  askAcknowledge(): void;
  answerAcknowledge(yes: boolean): void;
  acknowledgeDone(outcome: Outcome<{ acknowledgedAt: string | null }>): void;
  /** `T` on the channels: sends the selected channel a test event. */
  testSelectedChannel(): void;
  channelTestDone(channelId: number, outcome: Outcome<AlertNotification>): void;
}

export interface ChartData {
  from: number;
  to: number;
  checks: ChartCheck[];
  /** How many of the dashboard's checks the chart leaves out (request cost is bounded). */
  leftOut: number;
}

export interface DashboardsSlice {
  /** The tag filter as typed (focus 'filter' on the dashboards view), applied (sent to the API) on enter. */
  dashboardTagsText: string;
  /** Results behind the open dashboard's metrics charts, by period. */
  charts: Partial<Record<Period, Remote<ChartData>>>;
  cyclePrivacy(): void;
  openDashboardTags(): void;
  setDashboardTags(text: string): void;
  closeDashboardTags(clear: boolean): void;
  openDashboard(): void;
  /** The open dashboard (a newer answer of it, or a public dashboard's first). */
  showDashboard(d: Dashboard): void;
  setChart(period: Period, r: Remote<ChartData>): void;
}

export type ScreenshotWish = 'show' | 'save';

export interface Screenshot {
  checkId: string | null;
  resultId: string | null;
  png: Remote<Uint8Array>;
  /** What the user asked for that the feed still owes: a fetch to show, or a save. */
  pending: ScreenshotWish | null;
  /** The picture replaces the result's text while true. */
  shown: boolean;
  /** The last save: where the file went, or why it did not. */
  saved: { ok: true; path: string } | { ok: false; message: string } | null;
}

export interface ScreenshotSlice {
  screenshot: Screenshot;
  /** `show` toggles the picture; `save` writes the PNG to a file (both fetch it first if needed). */
  askScreenshot(checkId: string, resultId: string, wish: ScreenshotWish): void;
  screenshotLoaded(resultId: string, png: Uint8Array, at: number): void;
  screenshotFailed(resultId: string, error: ErrorInfo): void;
  screenshotSaved(resultId: string, outcome: NonNullable<Screenshot['saved']>): void;
}

export interface MeSlice {
  /** The key's account, name and role: `store.getState().me?.role`. */
  me: Me | null;
  setMe(me: Me): void;
}

export interface Of<T> {
  checkId: string | null;
  remote: Remote<T>;
}

export interface CheckRecordSlice {
  audit: Of<AuditEventList>;
  dailyHistory: Of<CheckHistoryList>;
  setAudit(checkId: string, remote: Remote<AuditEventList>): void;
  setDailyHistory(checkId: string, remote: Remote<CheckHistoryList>): void;
}

export type BoardRow =
  { kind: 'check'; id: string } | { kind: 'group'; id: string; name: string; count: number };

export interface BoardMemo {
  checks: ConsoleState['checks'];
  filterText: string;
  sortKey: ConsoleState['sortKey'];
  sortDesc: boolean;
  grouped: boolean;
  scope: Scope | null;
  /** The checks shown, in order. */
  sorted: CheckStatus[];
  order: string[];
  rows: BoardRow[];
}

export interface ChartChecksMemo {
  checks: unknown;
  scope: unknown;
  value: { chosen: CheckStatus[]; leftOut: number };
}

export interface SessionInfo {
  /** Profile name or account, for the header. */
  label: string;
  /** Service host, for the header. */
  host: string;
  refreshMs: number;
  ascii: boolean;
  color: boolean;
  /** The terminal draws 24-bit colour (COLORTERM); pictures use the 256-colour palette otherwise. */
  truecolor: boolean;
  /** How long the wall shows each page of failing checks. */
  wallCycleMs: number;
  /** Reading one public dashboard without credentials (`--public`). */
  isPublic: boolean;
  /** The service's address, for the engineer's own commands ({baseUrl}). */
  baseUrl: string;
  /** The demo's status page: its path in the label is a link to it (docs/console.md, "Links"). */
  statusPageUrl?: string | undefined;
}

/**
 * Derived values remembered between renders, one set per store: a cache (set
 * in place by the selectors, never through `set`), not state anyone reads.
 */
export interface Memos {
  board?: BoardMemo;
  chartChecks?: ChartChecksMemo;
  firstRuns?: { checks: Record<string, CheckStatus>; value: number };
}

export type ConsoleState = BoardSlice &
  ConnectionSlice &
  NavSlice &
  DetailSlice &
  ChannelsSlice &
  AlertsSlice &
  DashboardsSlice &
  PagedListSlice &
  ScreenshotSlice &
  MeSlice &
  CheckActionsSlice &
  CheckRecordSlice &
  SilenceSlice &
  WindowsSlice &
  HandsSlice & { session: SessionInfo; memos: Memos };
export type ConsoleStore = StoreApi<ConsoleState>;

export const DEFAULT_SESSION: SessionInfo = {
  label: '',
  host: '',
  refreshMs: 10_000,
  ascii: false,
  color: true,
  truecolor: false,
  wallCycleMs: 8_000,
  isPublic: false,
  baseUrl: '',
};

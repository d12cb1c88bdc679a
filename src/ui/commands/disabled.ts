// Why a key is not offered now, in one place: the footer leaves it out, the ?
// overlay lists it with the reason, and pressing it shows the reason instead of
// acting. A binding's role comes from the keymap (docs/roles.md); until the
// service says who the key is (GET /v1/me) every role is offered, and its 403
// says the rest.
import type { ConsoleState } from '../../store/state.js';
import { selectMissingRole } from '../../store/me-slice.js';
import { selectView } from '../../store/selectors.js';
import { remoteData } from '../../store/detail-slice.js';
import { silenceTargets } from '../../store/silence-slice.js';
import { selectBodyHeight } from '../body-height.js';
import { historyRows } from '../views/check-detail/alerts-panel.js';
import { KEYMAP, type Binding, type CommandId, type NeededRole } from '../keymap.js';

/** The check an action on a check names on the view on top: the open one, or the board's selected one. */
export function actedCheckId(s: ConsoleState): string | null {
  const view = selectView(s);
  if (view.name === 'check' || view.name === 'result') return view.checkId;
  return view.name === 'board' || view.name === 'dashboard' ? s.selectedId : null;
}

const noCheck = (s: ConsoleState) => {
  const id = actedCheckId(s);
  return id && s.checks[id] ? undefined : 'no check selected';
};
const noTarget = (s: ConsoleState) => (silenceTargets(s).length > 0 ? undefined : 'no check selected');
const noWindow = (s: ConsoleState) => (s.selectedWindowId === null ? 'no window selected' : undefined);
/** An alert to acknowledge: the open check's, open and not yet acknowledged. */
const noAlert = (s: ConsoleState) => {
  const view = selectView(s);
  const alert = view.name === 'check' ? s.checks[view.checkId]?.currentAlert : undefined;
  if (!alert) return 'this check has no open alert';
  return alert.acknowledgedAt
    ? `already acknowledged at ${new Date(alert.acknowledgedAt).toISOString().slice(11, 19)}`
    : undefined;
};
/** D shows the deliveries fetched beyond those that fit, and hides them again: with none beyond, nothing moves. */
const noMoreDeliveries = (s: ConsoleState) => {
  const view = selectView(s);
  if (view.name !== 'check' || view.allDeliveries) return undefined;
  const fetched = s.alertHistoryCheckId === view.checkId ? (remoteData(s.alertHistory)?.data.length ?? 0) : 0;
  return fetched > historyRows(selectBodyHeight(s)) ? undefined : 'every delivery fetched is shown';
};
const noChannel = (s: ConsoleState) =>
  s.lists.channels.selectedId === null ? 'no channel selected' : undefined;

/** What a command needs on screen to act on, beyond the key's role. */
const NEEDS: Partial<Record<CommandId, (s: ConsoleState) => string | undefined>> = {
  'act.runNow': noCheck,
  'act.pause': noCheck,
  'board.maintenance': noTarget,
  'check.maintenance': noTarget,
  'check.acknowledge': noAlert,
  'check.deliveries': noMoreDeliveries,
  'maintenance.end': noWindow,
  'maintenance.extend': noWindow,
  'channels.reveal': noChannel,
  'channels.test': noChannel,
  'channels.grouping': noChannel,
  'channels.subscriptions': noChannel,
};

/** Why `binding` is not offered now, or undefined when it is. */
export function disabledReason(
  binding: Pick<Binding, 'command' | 'role'>,
  s: ConsoleState,
): string | undefined {
  if (binding.role) {
    if (s.session.isPublic) return 'a public dashboard has no key to act with';
    const has = selectMissingRole(s, binding.role);
    if (has) return `needs an ${binding.role} key; this key is ${has}`;
  }
  return NEEDS[binding.command]?.(s);
}

/** What pressing a disabled binding says: its key, then why. */
export const refusal = (binding: Pick<Binding, 'keys'>, reason: string): string =>
  `${binding.keys.join('/')}: ${reason}`;

/** The keys a key of this role may not press, for the ? overlay's first lines; null when it may. */
export function roleNote(s: ConsoleState, role: NeededRole): string | null {
  const has = selectMissingRole(s, role);
  if (!has) return null;
  const keys = [...new Set(KEYMAP.filter((b) => b.role === role).map((b) => b.keys.join('/')))];
  return `${keys.join(', ')}: need an ${role} key; this key is ${has}`;
}

// Which keys apply: the focus says which input has them, the top view's name
// which of its scopes (see the View type in store/types.ts).
import type { ConsoleState } from '../store/state.js';
import { fieldPaths, formFields, subsKindOf } from '../store/channel-form.js';
import { selectView } from '../store/selectors.js';
import type { Focus, ViewName } from '../store/types.js';
import type { Scope } from './keymap.js';

/** The scopes of each view while its list (its own keys) has the focus. */
const LIST_SCOPES: Record<ViewName, Scope[]> = {
  board: ['board', 'list'],
  check: ['check', 'list'],
  result: ['result'],
  metrics: ['metrics'],
  dashboards: ['dashboards', 'list'],
  dashboard: ['board', 'list'],
  channels: ['channels', 'list'],
  'channel-form': ['form-type'],
  wall: ['wall'],
  maintenance: ['maintenance', 'list'],
  // A short list with nothing to pick: the global keys only.
  locations: [],
};

const PANEL_SCOPE = { menu: 'menu', text: 'pane', ask: 'ask' } as const satisfies Record<string, Scope>;

/** The text filter of a view: the board's filter, or the dashboards' tags. */
const FILTER_SCOPES: Partial<Record<ViewName, Scope>> = {
  board: 'filter',
  dashboard: 'filter',
  dashboards: 'tags',
};

/** Views that need the account's credentials: on a public dashboard they say so instead. */
export const ACCOUNT_ONLY: ReadonlySet<ViewName> = new Set<ViewName>([
  'check',
  'result',
  'metrics',
  'dashboards',
  'channels',
  'channel-form',
  'maintenance',
]);

/** The scopes searched for a key, most specific first (`focus`: as if it were there). */
export function keyScopes(s: ConsoleState, focus: Focus = s.focus): Scope[] {
  if (focus === 'help') return ['help'];
  if (focus === 'prompt') return ['prompt'];
  // A menu of links or copies, a text shown whole, or a question before a command of the user's.
  if (s.handsPanel) return [PANEL_SCOPE[s.handsPanel.kind]];
  const view = selectView(s).name;
  if (s.session.isPublic && ACCOUNT_ONLY.has(view)) return ['placeholder'];
  if (focus === 'filter') return [FILTER_SCOPES[view] ?? 'filter'];
  // "Discard what you typed?" takes y and n as answers; other keys keep editing, into the field.
  if (focus === 'form') {
    // The list of checks or groups takes its own keys while open; `/` in it searches by typed text.
    if (s.form.picker) return s.form.picker.searching ? ['pick-search'] : ['pick'];
    if (s.form.confirmDiscard) return ['discard', 'form'];
    const path = fieldPaths(s.form)[s.form.focus];
    if (subsKindOf(path)) return ['form-subs', 'form'];
    return formFields(s.form).find((f) => f.path === path)?.choices ? ['form-choice', 'form'] : ['form'];
  }
  // The maintenance prompt (M) takes the keys, over whichever view it was asked on.
  if (s.silence.state === 'ask') return ['silence'];
  if (view === 'maintenance' && s.windowAction.state === 'confirm') return ['window-confirm'];
  if (view === 'maintenance' && s.windowAction.state === 'extend') return ['window-extend'];
  if (view === 'channels' && s.grouping.state === 'ask') return ['channel-grouping'];
  // The question before acting on a check (run now, pause, resume) takes the keys until answered.
  if (s.checkAction.state === 'confirm') return ['confirm'];
  // The question before acknowledging an alert takes the keys until answered.
  if (view === 'check' && s.ack.state === 'confirm') return ['confirm'];
  return LIST_SCOPES[view];
}

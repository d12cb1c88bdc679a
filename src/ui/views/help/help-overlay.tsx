// The ? overlay, generated from the keymap table and the legend of marks; it
// scrolls (j/k, arrows, pgup/pgdn) when it is longer than the screen. A line wider
// than the overlay goes on under its description, never cut off. A key not
// offered now is listed with why (src/ui/commands/disabled.ts), and the keys the
// key's role may not press are named first.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import type { ConsoleState, ConsoleStore } from '../../../store/state.js';
import { disabledReason, roleNote } from '../../commands/disabled.js';
import { KEYMAP, type Binding, type Scope } from '../../keymap.js';
import { legendLines } from '../../legend.js';
import { createTheme, tint, useTheme } from '../../theme.js';
import { sanitize, wrapText } from '../../../domain/sanitize.js';
import { userCommandHidden } from '../../commands/user-commands.js';

/** Each scope's heading in ?. */
export const TITLES: Partial<Record<Scope, string>> = {
  global: 'Everywhere',
  list: 'Lists',
  board: 'Board',
  check: 'Check',
  result: 'Result',
  metrics: 'Metrics',
  dashboards: 'Dashboards',
  channels: 'Alert channels',
  maintenance: 'Maintenance windows (:maintenance)',
  silence: 'The maintenance prompt of M (keys type text)',
  'window-confirm': 'Maintenance windows: “End it now?”',
  'window-extend': 'Maintenance windows: extending by (keys type text)',
  confirm: 'Answering a question (acknowledge, run now, pause or resume?)',
  discard: 'New channel: “Discard what you typed?”',
  'form-type': 'New channel: choosing the type',
  form: 'New channel: the fields (keys type text)',
  filter: 'While filtering',
  prompt: 'At the : prompt',
  wall: 'Wall',
  tags: 'While typing the dashboards’ tags',
  help: 'This help',
  menu: 'A menu of links or of things to copy (L, Y)',
  pane: 'A text shown whole (too long to copy)',
  ask: 'Before one of your own commands runs',
};

export interface HelpOverlayProps {
  store: ConsoleStore;
  height: number;
  /** The scopes of the view beneath, whose keys are listed first. */
  first?: readonly Scope[] | undefined;
  /** How the statuses are polled, when a large account polls them in tiers. */
  pollCycle?: string | null | undefined;
}

interface Line {
  key: string;
  title: string;
  text: string;
}

/** What the help says before the keys: the keys this key's role may not press. */
export function roleNotes(s: ConsoleState): string[] {
  return (['operate', 'admin'] as const).flatMap((role) => roleNote(s, role) ?? []);
}

/** Why each binding of the keymap is not offered now ('' when it is), as one string for a stable selector. */
export const selectDisabled = (s: ConsoleState): string =>
  KEYMAP.map((b) => disabledReason(b, s) ?? '').join('\n');

/** The keys' column and the space after it: a binding's description starts there. */
const KEY_COLUMN = 19;

/** A binding's keys and description; keys wider than their column have a line of their own. */
function bindingLines(b: Binding, reason: string | undefined): string[] {
  const role = b.role ? ` [${b.role}]` : '';
  // The role it needs is in brackets already (and in the note at the top): say only what this key is.
  const needs = b.role ? `needs an ${b.role} key; ` : undefined;
  const why = needs && reason?.startsWith(needs) ? reason.slice(needs.length) : reason;
  const keys = b.keys.join(', ');
  const text = `${b.help}${role}${why ? ` (not now: ${why})` : ''}`;
  return keys.length < KEY_COLUMN
    ? [`${keys.padEnd(KEY_COLUMN - 1)} ${text}`]
    : [keys, `${' '.repeat(KEY_COLUMN)}${text}`];
}

/** The columns a line's text has: the terminal's, less the border, the padding and the indent. */
const textRoom = (cols: number) => Math.max(KEY_COLUMN + 10, cols - 6);

/** Where a line's description starts: after the last gap of its keys' (or marks') columns. */
function descriptionAt(text: string): number {
  let at = 0;
  for (const m of text.slice(0, KEY_COLUMN + 1).matchAll(/ {2,}(?=\S)/g)) at = m.index + m[0].length;
  return at || KEY_COLUMN;
}

/** A line of text on as many lines as it takes, the next ones under its description. */
function hanging(l: Line, room: number): Line[] {
  // A title (a role's note: the keys it may not press) goes on two spaces in.
  if (l.title)
    return wrapText(l.title, room).map((title, i) =>
      i === 0 ? { ...l, title } : { key: `${l.key}+${i}`, title: `  ${title}`, text: '' },
    );
  const [first = '', ...rest] = wrapText(l.text, room);
  if (rest.length === 0) return [l];
  const indent = descriptionAt(l.text);
  const more = wrapText(rest.join(' '), room - indent);
  return [
    { ...l, text: first },
    ...more.map((text, i) => ({ key: `${l.key}+${i}`, title: '', text: `${' '.repeat(indent)}${text}` })),
  ];
}

function helpLines(
  cols: number,
  first: readonly Scope[],
  notes: readonly string[],
  disabled: readonly string[] = [],
  own: readonly string[] = [],
): Line[] {
  const ownLines: Line[] = own.length
    ? [
        { key: 'h-own', title: 'Your own commands (the config file’s `commands`)', text: '' },
        ...own.map((text, i) => ({ key: `own-${i}`, title: '', text })),
      ]
    : [];
  const order = Object.entries(TITLES).sort(([a], [b]) => rank(first, a as Scope) - rank(first, b as Scope));
  const section = ([scope, title]: [string, string]): Line[] => [
    { key: `h-${scope}`, title, text: '' },
    ...KEYMAP.flatMap((b, i) =>
      b.scope === scope
        ? bindingLines(b, disabled[i] || undefined).map((text, at) => ({
            key: `${scope}-${b.command}${at ? '+keys' : ''}`,
            title: '',
            text,
          }))
        : [],
    ),
  ];
  const marks = legendLines(
    createTheme({ color: false, ascii: false }),
    createTheme({ color: false, ascii: true }),
  );
  // The keys of the view beneath first, then what its marks mean, then everything else.
  const mine = order.filter(([scope]) => first.includes(scope as Scope));
  const rest = order.filter(([scope]) => !first.includes(scope as Scope));
  const lines: Line[] = [
    ...notes.map((title, i) => ({ key: `note-${i}`, title, text: '' })),
    ...mine.flatMap(section),
    ...ownLines,
    { key: 'h-marks', title: 'Marks (as drawn, then with --ascii)', text: '' },
    ...marks.map((text, i) => ({ key: `mark-${i}`, title: '', text })),
    ...rest.flatMap(section),
  ];
  const room = textRoom(cols);
  return lines.flatMap((l) => hanging(l, room));
}

/** Lines of help that fit in `height`: less the border, the title, a poll-cycle line and the position line. */
export const helpRoom = (height: number, pollCycle: boolean): number =>
  Math.max(1, height - (pollCycle ? 4 : 3) - 1);

/** How many lines the help has (the same in any order, not at any width): how far it can scroll. */
export const helpLineCount = (s: ConsoleState): number =>
  helpLines(s.cols, [], roleNotes(s), selectDisabled(s).split('\n'), ownCommandLines(s)).length;

/** The user's commands a key of this role may run, one line each: key, name, where, what runs. */
export function ownCommandLines(s: ConsoleState): string[] {
  return s.userCommands
    .filter((c) => !userCommandHidden(s, c))
    .map(
      (c) =>
        `${c.key.padEnd(18)} ${sanitize(c.name)} (${c.scope}${c.confirm ? ', asks first' : ''}): ${sanitize(c.run.join(' '))}`,
    );
}

export function HelpOverlay({ store, height, first = [], pollCycle }: HelpOverlayProps) {
  const theme = useTheme();
  const asked = useStore(store, (s) => s.helpScroll);
  const notes = useStore(store, (s) => roleNotes(s).join('\n'));
  const disabled = useStore(store, selectDisabled);
  const own = useStore(store, (s) => ownCommandLines(s).join('\n'));
  const cols = useStore(store, (s) => s.cols);
  const lines = helpLines(
    cols,
    first,
    notes ? notes.split('\n') : [],
    disabled.split('\n'),
    own ? own.split('\n') : [],
  );
  const room = helpRoom(height, Boolean(pollCycle));
  const top = Math.min(asked, Math.max(0, lines.length - room));
  const below = Math.max(0, lines.length - top - room);
  return (
    <Box flexDirection="column" height={height} borderStyle={theme.ascii ? 'classic' : 'round'} paddingX={1}>
      <Text bold color={tint(theme, theme.accent)}>
        Keys (esc or ? to close)
      </Text>
      {pollCycle ? <Text wrap="truncate">{`Polling: ${pollCycle}`}</Text> : null}
      {lines.slice(top, top + room).map((l) =>
        l.title ? (
          <Text key={l.key} bold wrap="truncate">
            {l.title}
          </Text>
        ) : (
          <Text key={l.key} wrap="truncate">{`  ${l.text}`}</Text>
        ),
      )}
      <Text color={tint(theme, theme.dim)} wrap="truncate">
        {`lines ${top + 1}-${Math.min(lines.length, top + room)} of ${lines.length}${below > 0 ? ` ${theme.rule} j/k, pgdn/pgup scroll` : ''}`}
      </Text>
    </Box>
  );
}

function rank(first: readonly Scope[], scope: Scope): number {
  const at = first.indexOf(scope);
  return at >= 0 ? at : scope === 'global' ? first.length : first.length + 1;
}

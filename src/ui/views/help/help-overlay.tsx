// The ? overlay, generated from the keymap table and the legend of marks; it
// scrolls (j/k, arrows, pgup/pgdn) when it is longer than the screen.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import type { ConsoleState, ConsoleStore } from '../../../store/state.js';
import { ACTION_KEYS } from '../../../store/check-actions-slice.js';
import { selectMissingRole } from '../../../store/me-slice.js';
import { KEYMAP, type Scope } from '../../keymap.js';
import { legendLines } from '../../legend.js';
import { createTheme, tint, useTheme } from '../../theme.js';

const TITLES: Partial<Record<Scope, string>> = {
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

/** Why the actions are not offered, on a key whose role cannot take them; null when they are. */
export function actionsNote(s: Pick<ConsoleState, 'me'>): string | null {
  const role = selectMissingRole(s, 'operate');
  return role
    ? `${ACTION_KEYS.run}, ${ACTION_KEYS.pause}, M: need an operate key; this key is ${role}`
    : null;
}

function helpLines(first: readonly Scope[], note: string | null = null): Line[] {
  const order = Object.entries(TITLES).sort(([a], [b]) => rank(first, a as Scope) - rank(first, b as Scope));
  const section = ([scope, title]: [string, string]): Line[] => [
    { key: `h-${scope}`, title, text: '' },
    ...KEYMAP.filter((b) => b.scope === scope).map((b) => ({
      key: `${scope}-${b.command}`,
      title: '',
      text: `${b.keys.join(', ').padEnd(18)} ${b.help}`,
    })),
  ];
  const marks = legendLines(
    createTheme({ color: false, ascii: false }),
    createTheme({ color: false, ascii: true }),
  );
  // The keys of the view beneath first, then what its marks mean, then everything else.
  const mine = order.filter(([scope]) => first.includes(scope as Scope));
  const rest = order.filter(([scope]) => !first.includes(scope as Scope));
  return [
    ...(note ? [{ key: 'note-actions', title: note, text: '' }] : []),
    ...mine.flatMap(section),
    { key: 'h-marks', title: 'Marks (as drawn, then with --ascii)', text: '' },
    ...marks.map((text, i) => ({ key: `mark-${i}`, title: '', text })),
    ...rest.flatMap(section),
  ];
}

/** Lines of help that fit in `height`: less the border, the title, a poll-cycle line and the position line. */
export const helpRoom = (height: number, pollCycle: boolean): number =>
  Math.max(1, height - (pollCycle ? 4 : 3) - 1);

/** How many lines the help has (the same in any order): how far it can scroll. */
export const helpLineCount = (s: Pick<ConsoleState, 'me'>): number => helpLines([], actionsNote(s)).length;

export function HelpOverlay({ store, height, first = [], pollCycle }: HelpOverlayProps) {
  const theme = useTheme();
  const asked = useStore(store, (s) => s.helpScroll);
  const note = useStore(store, actionsNote);
  const lines = helpLines(first, note);
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

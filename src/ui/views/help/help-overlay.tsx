// The ? overlay, generated from the keymap table.
import { Box, Text } from 'ink';
import { KEYMAP, type Scope } from '../../keymap.js';
import { tint, useTheme } from '../../theme.js';

const TITLES: Partial<Record<Scope, string>> = {
  global: 'Everywhere',
  list: 'Lists',
  board: 'Board',
  check: 'Check',
  result: 'Result',
  metrics: 'Metrics',
  dashboards: 'Dashboards',
  channels: 'Alert channels',
  confirm: 'Answering a question (acknowledge?)',
  discard: 'New channel: “Discard what you typed?”',
  'form-type': 'New channel: choosing the type',
  form: 'New channel: the fields (keys type text)',
  filter: 'While filtering',
  prompt: 'At the : prompt',
  wall: 'Wall',
  tags: 'While typing the dashboards’ tags',
};

export interface HelpOverlayProps {
  height: number;
  /** The scopes of the view beneath, whose keys are listed first (the rest may not fit). */
  first?: readonly Scope[] | undefined;
  /** How the statuses are polled, when a large account polls them in tiers. */
  pollCycle?: string | null | undefined;
}

export function HelpOverlay({ height, first = [], pollCycle }: HelpOverlayProps) {
  const theme = useTheme();
  const order = Object.entries(TITLES).sort(([a], [b]) => rank(first, a as Scope) - rank(first, b as Scope));
  const lines = order.flatMap(([scope, title]) => [
    { key: `h-${scope}`, title, text: '' },
    ...KEYMAP.filter((b) => b.scope === scope).map((b) => ({
      key: `${scope}-${b.command}`,
      title: '',
      text: `${b.keys.join(', ').padEnd(18)} ${b.help}`,
    })),
  ]);
  return (
    <Box flexDirection="column" height={height} borderStyle={theme.ascii ? 'classic' : 'round'} paddingX={1}>
      <Text bold color={tint(theme, theme.accent)}>
        Keys (esc or ? to close)
      </Text>
      {pollCycle ? <Text wrap="truncate">{`Polling: ${pollCycle}`}</Text> : null}
      {lines.slice(0, Math.max(0, height - (pollCycle ? 4 : 3))).map((l) =>
        l.title ? (
          <Text key={l.key} bold>
            {l.title}
          </Text>
        ) : (
          <Text key={l.key} wrap="truncate">{`  ${l.text}`}</Text>
        ),
      )}
    </Box>
  );
}

function rank(first: readonly Scope[], scope: Scope): number {
  const at = first.indexOf(scope);
  return at >= 0 ? at : scope === 'global' ? first.length : first.length + 1;
}

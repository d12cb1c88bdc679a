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
  filter: 'While filtering',
  prompt: 'At the : prompt',
  wall: 'Wall',
};

/** The keys of the view it was opened on come first: a short terminal cuts the rest. */
export function HelpOverlay({ height, first = [] }: { height: number; first?: readonly Scope[] }) {
  const theme = useTheme();
  const scopes = Object.keys(TITLES) as Scope[];
  const ordered = [
    ...first.filter((sc) => scopes.includes(sc)),
    ...scopes.filter((sc) => !first.includes(sc)),
  ];
  const lines = ordered.flatMap((scope) => [
    { key: `h-${scope}`, title: TITLES[scope]!, text: '' },
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
      {lines.slice(0, Math.max(0, height - 3)).map((l) =>
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

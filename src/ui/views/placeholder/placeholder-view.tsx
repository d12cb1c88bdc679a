// Views that have not been built yet say so plainly instead of pretending.
import { Box, Text } from 'ink';
import { tint, useTheme } from '../../theme.js';

export function PlaceholderView({ name, height }: { name: string; height: number }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" height={height} paddingX={1}>
      <Text bold>{name}</Text>
      <Text color={tint(theme, theme.dim)}>This view is not built yet. esc goes back.</Text>
    </Box>
  );
}

// In --public mode there are no credentials: views that need them say so.
import { Box, Text } from 'ink';
import { tint, useTheme } from '../../theme.js';

export function NeedsAccountView({ what, height }: { what: string; height: number }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" height={height} paddingX={1}>
      <Text bold>{`A public dashboard cannot show ${what}.`}</Text>
      <Text color={tint(theme, theme.dim)}>
        It is read without credentials, and only its checks’ statuses are public. Run checkwall with an
        account for more. esc goes back.
      </Text>
    </Box>
  );
}

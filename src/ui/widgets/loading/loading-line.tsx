// A list's line before its first answer. Once the first fetch has failed (its error on the line
// above), the poller is trying again on its backoff: "loading…" under the error read as if the
// error were over, or as if nothing would happen.
import { Text } from 'ink';
import { tint, useTheme } from '../../theme.js';

export function LoadingLine({ what, failed }: { what: string; failed: boolean }) {
  const theme = useTheme();
  return (
    <Text color={tint(theme, theme.dim)} wrap="truncate">
      {failed ? `no ${what} yet: trying again` : `loading the ${what}…`}
    </Text>
  );
}

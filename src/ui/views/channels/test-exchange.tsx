// A channel test's exchange under the list: the body sent and the receiver's
// answer (status and body), masked, sanitised and cut at 2 KB (domain/exchange.ts),
// wrapped into the lines the view can spare.
import { Box, Text } from 'ink';
import { configSecrets, exchangeText } from '../../../domain/exchange.js';
import type { AlertChannel, AlertNotification } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';

/** The lines the exchange panel takes at most: a third of the view, at least a line for each part. */
export const exchangeRows = (height: number): number => Math.max(2, Math.floor(height / 3));

export function hasExchange(outcome: AlertNotification | undefined): boolean {
  return Boolean(outcome && (outcome.sentBody != null || outcome.answer != null));
}

export function TestExchange({
  outcome,
  channel,
  cols,
  rows,
}: {
  outcome: AlertNotification;
  channel: AlertChannel | undefined;
  cols: number;
  rows: number;
}) {
  const theme = useTheme();
  const secrets = channel ? configSecrets(channel.config) : [];
  const sent = exchangeText(outcome.sentBody ?? '', secrets);
  const answer = outcome.answer;
  const answerText = answer
    ? `HTTP ${answer.status ?? '?'} ${exchangeText(answer.body, secrets) || '(empty body)'}`
    : 'no answer (nothing connected)';
  const half = Math.max(1, Math.floor(rows / 2));
  return (
    <Box flexDirection="column" width={cols}>
      <Box height={half} overflow="hidden">
        <Text wrap="wrap">
          <Text color={tint(theme, theme.dim)}>{'Sent    '}</Text>
          {sent || '(no body)'}
        </Text>
      </Box>
      <Box height={Math.max(1, rows - half)} overflow="hidden">
        <Text wrap="wrap">
          <Text color={tint(theme, theme.dim)}>{'Answer  '}</Text>
          {answerText}
        </Text>
      </Box>
    </Box>
  );
}

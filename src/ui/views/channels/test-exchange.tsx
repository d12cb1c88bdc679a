// A channel test's exchange under the list: the body sent and the receiver's
// answer (status and body), masked, sanitised and cut at 2 KB (domain/exchange.ts),
// wrapped into the lines the view can spare.
import { Box, Text } from 'ink';
import { configSecrets, exchangeText } from '../../../domain/exchange.js';
import { wrappedLineCount } from '../../../domain/sanitize.js';
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
  const secrets = channel ? configSecrets(channel.config) : [];
  const sent = exchangeText(outcome.sentBody ?? '', secrets);
  const answer = outcome.answer;
  const answerText = answer
    ? `HTTP ${answer.status ?? '?'} ${exchangeText(answer.body, secrets) || '(empty body)'}`
    : 'no answer (nothing connected)';
  const width = Math.max(10, cols - LABEL);
  const [sentRows, answerRows] = shareRows(
    rows,
    linesOf(sent || '(no body)', width),
    linesOf(answerText, width),
  );
  return (
    <Box flexDirection="column" width={cols}>
      <Part label="Sent" text={sent || '(no body)'} rows={sentRows} width={width} />
      <Part label="Answer" text={answerText} rows={answerRows} width={width} />
    </Box>
  );
}

/** The labels' column: the texts wrap under themselves, beside it. */
const LABEL = 8;

const linesOf = (text: string, width: number) => Math.max(1, wrappedLineCount(text, width));

/**
 * The panel's rows shared between the body sent and the answer: each gets what it
 * needs when both fit; else the shorter keeps its lines up to half, the longer the
 * rest (an even split cut the body sent while the answer's half stood blank).
 */
export function shareRows(rows: number, sent: number, answer: number): [number, number] {
  const half = Math.max(1, Math.floor(rows / 2));
  const first = sent + answer <= rows ? sent : answer <= half ? rows - answer : sent <= half ? sent : half;
  const kept = Math.max(1, Math.min(rows - 1, first));
  return [kept, Math.max(1, rows - kept)];
}

function Part({ label, text, rows, width }: { label: string; text: string; rows: number; width: number }) {
  const theme = useTheme();
  return (
    <Box height={rows} overflow="hidden">
      <Box width={LABEL} flexShrink={0}>
        <Text color={tint(theme, theme.dim)}>{label}</Text>
      </Box>
      <Box width={width}>
        <Text wrap="wrap">{text}</Text>
      </Box>
    </Box>
  );
}

// The maintenance prompt of `M`, at the foot of whichever view it was asked on:
// what it covers (how many checks a filter shows, said before anything is
// asked), how long, the reason; then the outcome, until the next key.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { sanitize } from '../domain/sanitize.js';
import type { ConsoleState, ConsoleStore } from '../store/state.js';
import type { SilenceState } from '../store/silence-slice.js';
import { keysOf } from './keymap.js';
import { tint, useTheme } from './theme.js';

/** Lines the prompt takes at the foot of the screen, in place of the footer's one. */
export function silencePromptLines(s: ConsoleState): number {
  const silence = s.silence;
  if (silence.state === 'idle') return 0;
  if (silence.state === 'done') return 2;
  return silence.error ? 3 : 2;
}

export function SilencePrompt({ store }: { store: ConsoleStore }) {
  const silence = useStore(store, (s) => s.silence);
  if (silence.state === 'idle') return null;
  if (silence.state === 'done') return <Outcome message={silence.message} ok={silence.ok} />;
  return <Asking silence={silence} />;
}

function Outcome({ message, ok }: { message: string; ok: boolean }) {
  const theme = useTheme();
  return (
    <Text color={tint(theme, ok ? 'green' : 'red')} wrap="truncate">
      {sanitize(message)}
    </Text>
  );
}

function Asking({ silence }: { silence: Extract<SilenceState, { state: 'ask' | 'sending' }> }) {
  const theme = useTheme();
  const target = silence.targets[silence.target]!;
  const others = silence.targets.length > 1 ? `  (${keysOf('silence.target')}: another target)` : '';
  const step = silence.step;
  const field = step === 'duration' ? silence.durationText : silence.reasonText;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate" bold color={tint(theme, 'yellow')}>
        {`Maintenance (silence) for ${sanitize(target.label)}`}
        <Text bold={false} color={tint(theme, theme.dim)}>
          {others}
        </Text>
      </Text>
      {silence.error ? (
        <Text wrap="truncate" color={tint(theme, 'red')}>
          {sanitize(silence.error)}
        </Text>
      ) : null}
      <Text wrap="truncate">
        <Text color={tint(theme, theme.accent)}>
          {step === 'duration'
            ? 'How long? 15m, 1h, 4h, a time (14:30) or ISO: '
            : `For ${sanitize(silence.durationText.trim())}. Reason (required): `}
        </Text>
        {field}
        {silence.state === 'sending' ? (
          <Text color={tint(theme, theme.dim)}> starting…</Text>
        ) : (
          <>
            <Text inverse> </Text>
            <Text color={tint(theme, theme.dim)}>
              {`  ${keysOf('silence.next')} ${step === 'duration' ? 'next' : 'start'}  ${keysOf('silence.back')} ${step === 'duration' ? 'cancel' : 'back'}`}
            </Text>
          </>
        )}
      </Text>
    </Box>
  );
}

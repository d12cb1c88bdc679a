// Numbers legible across a room: each digit three columns wide and five rows tall,
// or at scale 2 (a wall's big screen) six wide and ten tall.
import { Box, Text } from 'ink';
import { bracketed, tint, useTheme } from '../../theme.js';

const FONT: Record<string, string[]> = {
  '0': ['###', '# #', '# #', '# #', '###'],
  '1': [' # ', '## ', ' # ', ' # ', '###'],
  '2': ['###', '  #', '###', '#  ', '###'],
  '3': ['###', '  #', '###', '  #', '###'],
  '4': ['# #', '# #', '###', '  #', '  #'],
  '5': ['###', '#  ', '###', '  #', '###'],
  '6': ['###', '#  ', '###', '# #', '###'],
  '7': ['###', '  #', '  #', '  #', '  #'],
  '8': ['###', '# #', '###', '# #', '###'],
  '9': ['###', '# #', '###', '  #', '###'],
};

export const DIGIT_ROWS = 5;

export type DigitScale = 1 | 2;

/** Rows a number takes at `scale`, its label not counted. */
export const digitRows = (scale: DigitScale = 1) => DIGIT_ROWS * scale;

export function bigDigitLines(value: number, block: string, scale: DigitScale = 1): string[] {
  const digits = String(Math.max(0, Math.floor(value))).split('');
  return Array.from({ length: digitRows(scale) }, (_, row) =>
    digits
      .map((d) =>
        FONT[d]![Math.floor(row / scale)]!.split('')
          .map((cell) => (cell === '#' ? block : ' ').repeat(scale))
          .join(''),
      )
      .join(' '.repeat(scale)),
  );
}

export function BigNumber({
  value,
  label,
  color,
  scale = 1,
}: {
  value: number;
  label: string;
  color?: string | undefined;
  scale?: DigitScale | undefined;
}) {
  const theme = useTheme();
  // Old figures (a muted theme) without grey to show it: "[###]", "[FAILING]".
  const [open, close] = bracketed(theme) ? ['[', ']'] : ['', ''];
  return (
    <Box flexDirection="column" marginRight={3 * scale}>
      {bigDigitLines(value, theme.bar, scale).map((line, i) => (
        <Text key={i} color={tint(theme, color)}>
          {`${open}${line}${close}`}
        </Text>
      ))}
      <Text bold color={tint(theme, color)}>
        {`${open}${label}${close}`}
      </Text>
    </Box>
  );
}

// Numbers legible across a room: each digit three columns wide and five rows tall.
import { Box, Text } from 'ink';
import { tint, useTheme } from '../../theme.js';

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

export function bigDigitLines(value: number, block: string): string[] {
  const digits = String(Math.max(0, Math.floor(value))).split('');
  return Array.from({ length: DIGIT_ROWS }, (_, row) =>
    digits.map((d) => FONT[d]![row]!.replace(/#/g, block)).join(' '),
  );
}

export function BigNumber({
  value,
  label,
  color,
}: {
  value: number;
  label: string;
  color?: string | undefined;
}) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" marginRight={3}>
      {bigDigitLines(value, theme.bar).map((line, i) => (
        <Text key={i} color={tint(theme, color)}>
          {line}
        </Text>
      ))}
      <Text bold color={tint(theme, color)}>
        {label}
      </Text>
    </Box>
  );
}

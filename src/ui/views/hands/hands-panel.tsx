// The hands' panel over the view: a menu of links to open or texts to copy, a
// text shown whole (one too long to copy), or the question before one of the
// engineer's own commands. Links are drawn as links where the terminal can.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { displayWidth, sanitize, sanitizeMultiline, truncate, wrapText } from '../../../domain/sanitize.js';
import type { HandsPanel as Panel } from '../../../store/hands-slice.js';
import type { ConsoleState, ConsoleStore } from '../../../store/state.js';
import { selectBodyHeight } from '../../body-height.js';
import { tint, useTheme, type Theme } from '../../theme.js';
import { linkText } from '../../widgets/link/link.js';

export function HandsPanel({ store, height }: { store: ConsoleStore; height: number }) {
  const theme = useTheme();
  const panel = useStore(store, (s) => s.handsPanel);
  const cols = useStore(store, (s) => s.cols);
  if (!panel) return null;
  const width = innerWidth(cols);
  const room = innerRoom(height);
  const lines = panelLines(panel, width, theme);
  const top =
    panel.kind === 'menu'
      ? Math.max(0, panel.at - room + 1)
      : Math.min(panel.at, Math.max(0, lines.length - room));
  return (
    <Box flexDirection="column" height={height} borderStyle={theme.ascii ? 'classic' : 'round'} paddingX={1}>
      <Text bold wrap="truncate" color={tint(theme, theme.accent)}>
        {sanitize(panel.title)}
      </Text>
      {lines.slice(top, top + room).map((line, i) => (
        <Text
          key={top + i}
          wrap="truncate"
          inverse={panel.kind === 'menu' && top + i === panel.at && theme.color}
        >
          {line}
        </Text>
      ))}
    </Box>
  );
}

// Inside the border and its padding; under the title.
const innerWidth = (cols: number) => Math.max(10, cols - 4);
const innerRoom = (height: number) => Math.max(1, height - 3);

/** A text's lines at `width`. */
const textLines = (text: string, width: number) =>
  sanitizeMultiline(text)
    .split('\n')
    .flatMap((l) => (l === '' ? [''] : wrapText(l, width)));

/** The top line of a text shown whole when its last line is at the panel's foot (j stops there). */
export function paneScrollEnd(s: ConsoleState): number {
  const panel = s.handsPanel;
  if (panel?.kind !== 'text') return 0;
  return Math.max(0, textLines(panel.text, innerWidth(s.cols)).length - innerRoom(selectBodyHeight(s)));
}

/** The panel's lines, each within `width` cells (links' escapes take none). */
function panelLines(panel: Panel, width: number, theme: Theme): string[] {
  switch (panel.kind) {
    case 'menu': {
      const label = Math.min(24, Math.max(...panel.items.map((i) => displayWidth(sanitize(i.label)))));
      // The selected item is marked as a table's row is: inverse alone is lost without colour.
      return panel.items.map((item, i) => {
        const mark = i === panel.at ? theme.selected : ' ';
        const name = truncate(sanitize(item.label), label).padEnd(label);
        const value = truncate(sanitize(item.value), Math.max(1, width - label - 4));
        return `${mark} ${name}  ${item.act === 'open' ? linkText(theme, item.value, value) : value}`;
      });
    }
    case 'text':
      return textLines(panel.text, width);
    case 'ask':
      return ['y or enter runs it; n or esc leaves it'];
  }
}

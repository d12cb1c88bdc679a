// What the last copy or open did (or what a channel serves after `s`), above the footer
// until the next key: wrapped whole, since the URL it names is what an engineer over SSH
// selects by hand.
import { Text } from 'ink';
import { useStore } from 'zustand';
import { sanitize, wrapText } from '../../../domain/sanitize.js';
import type { ConsoleState, ConsoleStore } from '../../../store/state.js';
import { tint, useTheme } from '../../theme.js';

type Room = Pick<ConsoleState, 'cols' | 'rows'>;
const noteRoom = (s: Room) => Math.max(1, Math.floor(s.rows / 2));
const wrapNote = (note: string, s: Room) => wrapText(sanitize(note), s.cols - 1);

/** The note's lines at the terminal's width; at most half the screen. */
export function handsNoteLines(s: Pick<ConsoleState, 'handsNote' | 'cols' | 'rows'>): string[] {
  if (!s.handsNote) return [];
  return wrapNote(s.handsNote, s).slice(0, noteRoom(s));
}

/** Whether `note` is shown whole (not cut at half the screen). */
export const handsNoteFits = (s: Room, note: string): boolean => wrapNote(note, s).length <= noteRoom(s);

export const selectHandsNoteHeight = (s: ConsoleState): number => handsNoteLines(s).length;

export function HandsNote({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const text = useStore(store, (s) => handsNoteLines(s).join('\n'));
  return text.split('\n').map((line, i) => (
    <Text key={i} wrap="truncate" color={tint(theme, theme.accent)}>
      {line}
    </Text>
  ));
}

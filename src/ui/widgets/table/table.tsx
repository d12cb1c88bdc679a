// A virtualised, selectable table: only the rows that fit are rendered, each as
// one line; cells are cut and padded by display width so wide characters and
// emoji keep the columns straight.
import { Text } from 'ink';
import { fit } from '../../../domain/sanitize.js';
import { tint, useTheme } from '../../theme.js';
import { GAP, windowStart, type PlacedColumn } from './layout.js';

export interface TableProps<R> {
  columns: PlacedColumn<R>[];
  rows: readonly R[];
  rowKey(row: R): string;
  selectedKey: string | null;
  height: number;
  /** A row drawn across the whole width instead of cells (e.g. a group heading). */
  fullRow?(row: R): string | undefined;
}

export function Table<R>({ columns, rows, rowKey, selectedKey, height, fullRow }: TableProps<R>) {
  const theme = useTheme();
  const selected = rows.findIndex((r) => rowKey(r) === selectedKey);
  const start = windowStart(selected, rows.length, height);
  const visible = rows.slice(start, start + height);
  const gap = ' '.repeat(GAP);
  return (
    <>
      <Text bold>
        {'  '}
        {columns.map((c) => fit(c.title, c.w, theme.ellipsis, c.align)).join(gap)}
      </Text>
      {visible.map((row) => {
        const key = rowKey(row);
        const isSelected = key === selectedKey;
        const whole = fullRow?.(row);
        const marker = isSelected ? `${theme.selected} ` : '  ';
        if (whole !== undefined) {
          return (
            <Text key={key} bold color={tint(theme, theme.accent)}>
              {marker}
              {whole}
            </Text>
          );
        }
        return (
          <Text key={key} inverse={isSelected && theme.color} wrap="truncate">
            {marker}
            {columns.map((c, i) => {
              const cell = c.cell(row);
              return (
                <Text key={c.key} color={tint(theme, cell.color)} bold={cell.bold ?? false}>
                  {i > 0 ? gap : ''}
                  {fit(cell.text, c.w, theme.ellipsis, c.align)}
                </Text>
              );
            })}
          </Text>
        );
      })}
    </>
  );
}

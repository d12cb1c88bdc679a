// A virtualised, selectable table: only the rows that fit are rendered, each as
// one line; cells are cut and padded by display width so wide characters and
// emoji keep the columns straight.
//
// Each row is memoised (a key press redraws the two rows whose selection moved,
// not forty), and each row is one Text holding its cells as nested Texts: Ink lays
// out and draws an outer Text as one node and one line, where a Box of a Text per
// cell was a dozen yoga nodes a row, laid out, walked and written at every frame
// (most of what was left of a key press's CPU: BENCHMARKS.md, "The console's tables"). Ink 6.8 remembers
// the measured size of every distinct Text it lays out, which a row per Text makes
// one entry per combination of a row's values: the bundle bounds that cache
// (scripts/ink-frame-edits.js).
import { Text } from 'ink';
import { memo, type ReactElement } from 'react';
import { fit } from '../../../domain/sanitize.js';
import { tint, useTheme, type Theme } from '../../theme.js';
import { linkText } from '../link/link.js';
import { GAP, windowStart, type PlacedColumn } from './layout.js';

export interface TableProps<R, D = R> {
  columns: PlacedColumn<D>[];
  rows: readonly R[];
  rowKey(row: R): string;
  /**
   * What a visible row's cells read (only visible rows are resolved; the row itself
   * when absent). A row is redrawn when this changes.
   */
  resolve?(row: R): D | undefined;
  selectedKey: string | null;
  height: number;
  /** A row drawn across the whole width instead of cells (e.g. a group heading). */
  fullRow?(row: R): string | undefined;
  /**
   * When rows are hidden, the last line says how many and where the selection is
   * ("… 2 more  19/21") instead of drawing one more row.
   */
  position?: boolean;
}

export function Table<R, D = R>({
  columns,
  rows,
  rowKey,
  resolve,
  selectedKey,
  height,
  fullRow,
  position = false,
}: TableProps<R, D>) {
  const theme = useTheme();
  const selected = rows.findIndex((r) => rowKey(r) === selectedKey);
  const cut = position && rows.length > height && height > 1;
  const shown = cut ? height - 1 : height;
  const start = windowStart(selected, rows.length, shown);
  const visible = rows.slice(start, start + shown);
  return (
    <>
      <Text bold>
        {'  '}
        {titles(columns, theme)}
      </Text>
      {visible.map((row) => {
        const key = rowKey(row);
        const whole = fullRow?.(row);
        const data = whole !== undefined ? undefined : resolve ? resolve(row) : (row as unknown as D);
        return data !== undefined ? (
          <Row key={key} data={data} columns={columns} selected={key === selectedKey} theme={theme} />
        ) : (
          <Text key={key} bold color={tint(theme, theme.accent)} wrap="truncate">
            {key === selectedKey ? `${theme.selected} ` : '  '}
            {whole ?? ''}
          </Text>
        );
      })}
      {cut ? (
        <Text color={tint(theme, theme.dim)} wrap="truncate">
          {`  ${positionLine(rows.length - visible.length, selected < 0 ? start + visible.length : selected + 1, rows.length, theme)}`}
        </Text>
      ) : null}
    </>
  );
}

/** "… 2 more  19/21": rows hidden, then the selected row's place among them all. */
export const positionLine = (hidden: number, at: number, total: number, theme: Theme): string =>
  `${theme.ellipsis} ${hidden} more  ${at}/${total}`;

interface RowProps<D> {
  data: D;
  columns: PlacedColumn<D>[];
  selected: boolean;
  theme: Theme;
}

function TableRow<D>({ data, columns, selected, theme }: RowProps<D>) {
  const inverse = selected && theme.color;
  return (
    <Text inverse={inverse} wrap="truncate">
      {selected ? `${theme.selected} ` : '  '}
      {cells(columns, data, theme)}
    </Text>
  );
}

/** The placed columns' titles, each cut and padded to its width: a table's header line. */
export function titles<D>(columns: readonly PlacedColumn<D>[], theme: Theme): string {
  return columns.map((c) => fit(c.title, c.w, theme.ellipsis, c.align)).join(' '.repeat(GAP));
}

/** The cut text linked, its padding outside the link (the link closes within the column). */
function linkedCell(theme: Theme, url: string, text: string): string {
  const shown = text.trim();
  const at = text.indexOf(shown);
  return `${text.slice(0, at)}${linkText(theme, url, shown)}${text.slice(at + shown.length)}`;
}

/** One row's cells as nested Texts, for a row's one outer Text (see above). */
export function cells<D>(columns: readonly PlacedColumn<D>[], data: D, theme: Theme): ReactElement[] {
  return columns.map((c, i) => {
    const cell = c.cell(data);
    const text = fit(cell.text, c.w, theme.ellipsis, c.align);
    return (
      <Text key={c.key} color={tint(theme, cell.color)} bold={cell.bold ?? false}>
        {`${i > 0 ? ' '.repeat(GAP) : ''}${cell.link ? linkedCell(theme, cell.link, text) : text}`}
      </Text>
    );
  });
}

const Row = memo(TableRow) as <D>(props: RowProps<D> & { key?: string }) => ReactElement;

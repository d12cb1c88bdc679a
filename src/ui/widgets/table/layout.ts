// Column layout and virtual scrolling for the table widget: pure, so they are
// tested without rendering.
//
// The one rule for every table's columns: in priority order, each column gets
// what its content needs (up to its `max`) before any less important column
// appears; a column with less room than its `width` is dropped, never squeezed,
// so narrow widths drop the least important columns before they shorten a name.
// Room left once every column that fits has its share goes, evenly, to the
// columns whose content is still cut (none takes a large share while another is
// cut), and then to the `flex` column. A measured column with nothing in any
// row is not drawn at all.
import { displayWidth } from '../../../domain/sanitize.js';

export interface Cell {
  text: string;
  color?: string | undefined;
  bold?: boolean;
  /** An http(s) URL the cell's text links to (OSC 8, where the terminal draws links; widgets/link). */
  link?: string | null;
}

export interface Column<R> {
  key: string;
  title: string;
  /** The narrowest it is drawn: with less room than this the column is dropped. */
  width: number;
  /**
   * A column of text that varies (a name, a target, a list): it asks for what its
   * longest cell needs, up to `max`, before less important columns appear. Without
   * it the column asks for `width`.
   */
  max?: number;
  /**
   * The cells a row's text needs, where reading it is cheaper than building the cell
   * (a board of 10,000 checks is measured at every poll); absent: the cell's text width.
   */
  measure?(row: R): number;
  /** Takes the room left over at the end. One column at most. */
  flex?: boolean;
  align?: 'left' | 'right';
  /** Lower is more important: the highest priorities drop first when room runs out. */
  priority: number;
  cell(row: R): Cell;
}

export interface PlacedColumn<R> extends Column<R> {
  w: number;
}

export const GAP = 1;

/**
 * Places `columns` in `width` cells for `rows` (the rows the table shows: what a
 * measured column's cells need is read from them; without rows it asks for `width`).
 */
export function layoutColumns<R>(
  columns: readonly Column<R>[],
  width: number,
  rows: readonly R[] = [],
): PlacedColumn<R>[] {
  const need = new Map(columns.map((c) => [c, measure(c, rows, width)]));
  const want = (c: Column<R>) => Math.min(c.max ?? c.width, need.get(c)!);
  const placed = new Map<Column<R>, number>();
  let used = 0;
  for (const c of [...columns].sort((a, b) => a.priority - b.priority)) {
    const gap = placed.size > 0 ? GAP : 0;
    const room = width - used - gap;
    if (need.get(c) === 0 || room < Math.min(c.width, want(c))) continue;
    const w = Math.min(want(c), room);
    placed.set(c, w);
    used += gap + w;
  }
  let spare = Math.max(0, width - used);
  // Evenly to what is still cut, most important first when it does not divide.
  let short = [...placed.keys()]
    .sort((a, b) => a.priority - b.priority)
    .filter((c) => need.get(c)! > placed.get(c)!);
  while (spare > 0 && short.length > 0) {
    const each = Math.max(1, Math.floor(spare / short.length));
    for (const c of short) {
      const give = Math.min(each, need.get(c)! - placed.get(c)!, spare);
      placed.set(c, placed.get(c)! + give);
      spare -= give;
    }
    short = short.filter((c) => need.get(c)! > placed.get(c)!);
  }
  const flex = columns.find((c) => c.flex && placed.has(c));
  if (flex) placed.set(flex, placed.get(flex)! + spare);
  return columns.filter((c) => placed.has(c)).map((c) => ({ ...c, w: placed.get(c)! }));
}

/** What a column's title and its longest cell need (a fixed column: its width; an empty one: 0). */
function measure<R>(c: Column<R>, rows: readonly R[], width: number): number {
  if (c.max === undefined || rows.length === 0) return c.width;
  let longest = 0;
  for (const row of rows) {
    longest = Math.max(longest, c.measure ? c.measure(row) : displayWidth(c.cell(row).text.trimEnd()));
    if (longest >= width) break;
  }
  return longest === 0 ? 0 : Math.max(longest, displayWidth(c.title));
}

/** The first row to draw so the selection stays on screen, centred where it can be. */
export function windowStart(selected: number, total: number, height: number): number {
  if (total <= height || selected < 0) return 0;
  return Math.max(0, Math.min(selected - Math.floor(height / 2), total - height));
}

// Column layout and virtual scrolling for the table widget: pure, so they are
// tested without rendering.
export interface Cell {
  text: string;
  color?: string | undefined;
  bold?: boolean;
}

export interface Column<R> {
  key: string;
  title: string;
  width: number;
  /** Takes the room left over (at least `width`). One column at most. */
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

export function layoutColumns<R>(columns: readonly Column<R>[], width: number): PlacedColumn<R>[] {
  const byImportance = [...columns].sort((a, b) => a.priority - b.priority);
  const kept = new Set<Column<R>>();
  let used = 0;
  for (const c of byImportance) {
    const need = c.width + (kept.size > 0 ? GAP : 0);
    if (used + need > width) continue;
    kept.add(c);
    used += need;
  }
  const spare = Math.max(0, width - used);
  const flex = columns.find((c) => c.flex && kept.has(c));
  return columns.filter((c) => kept.has(c)).map((c) => ({ ...c, w: c === flex ? c.width + spare : c.width }));
}

/** The first row to draw so the selection stays on screen, centred where it can be. */
export function windowStart(selected: number, total: number, height: number): number {
  if (total <= height || selected < 0) return 0;
  return Math.max(0, Math.min(selected - Math.floor(height / 2), total - height));
}

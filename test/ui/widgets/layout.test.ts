// The one column rule of every table: what identifies a row is whole before less
// important columns appear; spare room goes evenly to what is still cut.
import { describe, expect, it } from 'vitest';
import { GAP, layoutColumns, type Column } from '../../../src/ui/widgets/table/layout.js';

type Row = Record<string, string>;
const col = (key: string, width: number, priority: number, more: Partial<Column<Row>> = {}): Column<Row> => ({
  key,
  title: key.toUpperCase(),
  width,
  priority,
  cell: (r) => ({ text: r[key] ?? '' }),
  ...more,
});
const widths = (placed: { key: string; w: number }[]) => Object.fromEntries(placed.map((c) => [c.key, c.w]));
const total = (placed: { w: number }[]) => placed.reduce((n, c) => n + c.w, 0) + GAP * (placed.length - 1);

describe('layoutColumns', () => {
  const name = 'Checkout through the payments'; // 29 cells
  const columns = [
    col('status', 8, 0),
    col('name', 10, 1, { max: 40, flex: true }),
    col('avail', 7, 2),
    col('group', 10, 3, { max: 24 }),
    col('tags', 12, 4, { max: 30 }),
  ];
  const rows: Row[] = [{ name, group: 'Payments', tags: 'prod,eu,payments,checkout,core' }];

  it('keeps the name whole and drops the least important columns first when narrow', () => {
    const placed = layoutColumns(columns, 50, rows);
    // The group (8 cells) would need 9 with its gap: 4 are left, which the flex name takes.
    expect(widths(placed)).toEqual({ status: 8, name: 33, avail: 7 });
    expect(total(placed)).toBe(50);
  });

  it('cuts the most important column only when nothing less important is left to drop', () => {
    expect(widths(layoutColumns(columns, 30, rows))).toEqual({ status: 8, name: 21 });
    // Below a column's narrowest it is dropped, not squeezed.
    expect(widths(layoutColumns(columns, 15, rows))).toEqual({ status: 8 });
  });

  it('shares spare room evenly among the columns still cut, then gives the rest to the flex column', () => {
    const wide = [
      col('id', 4, 0),
      col('target', 10, 1, { max: 20, flex: true }),
      col('subs', 10, 2, { max: 20 }),
    ];
    const data: Row[] = [{ target: 'x'.repeat(100), subs: 'y'.repeat(50) }];
    // 4 + 20 + 20 + gaps = 46; 34 spare, 17 each.
    expect(widths(layoutColumns(wide, 80, data))).toEqual({ id: 4, target: 37, subs: 37 });
    // Once the subscriptions are whole the rest is the target's.
    expect(widths(layoutColumns(wide, 200, data))).toEqual({ id: 4, target: 144, subs: 50 });
  });

  it('draws no measured column that is empty in every row, and asks for its width without rows', () => {
    expect(widths(layoutColumns(columns, 120, [{ name: 'A', group: 'G' }]))).toEqual({
      status: 8,
      name: 97,
      avail: 7,
      group: 5,
    });
    expect(widths(layoutColumns(columns, 60, []))).toEqual({
      status: 8,
      name: 19,
      avail: 7,
      group: 10,
      tags: 12,
    });
  });
});

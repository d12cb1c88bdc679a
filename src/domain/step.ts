// Moving a selection through a list, as every list of the console does: by rows,
// clamped at both ends, or to the first or the last row.
export type Step = number | 'first' | 'last';

/**
 * The item `step` rows from `current` in `items` (counting from the first row
 * when `current` is not listed); undefined only for an empty list.
 */
export function stepTo<T>(items: readonly T[], current: T | null | undefined, step: Step): T | undefined {
  if (items.length === 0) return undefined;
  const at = Math.max(0, current === null || current === undefined ? 0 : items.indexOf(current));
  const last = items.length - 1;
  const next = step === 'first' ? 0 : step === 'last' ? last : Math.min(last, Math.max(0, at + step));
  return items[next];
}

// The `to` of a time range: a date-only value means the end of that day.
export function endOf(value: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(value) + 86_400_000 - 1 : Date.parse(value);
}

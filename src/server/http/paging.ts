// Paging meta, the same for every list.
export function pageMeta(page: number, limit: number, totalItems: number) {
  return { currentPage: page, totalPages: Math.max(1, Math.ceil(totalItems / limit)), totalItems, limit };
}

/** Where a page starts in the whole list. */
export const offsetOf = (q: { page: number; limit: number }): number => (q.page - 1) * q.limit;

export function slice<T>(items: readonly T[], page: number, limit: number): T[] {
  const from = offsetOf({ page, limit });
  return items.slice(from, from + limit);
}

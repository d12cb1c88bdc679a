// Paging meta, the same for every list.
export function pageMeta(page: number, limit: number, totalItems: number) {
  return { currentPage: page, totalPages: Math.max(1, Math.ceil(totalItems / limit)), totalItems, limit };
}

export function slice<T>(items: readonly T[], page: number, limit: number): T[] {
  return items.slice((page - 1) * limit, page * limit);
}

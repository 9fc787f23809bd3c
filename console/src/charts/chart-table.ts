/** Spec 9: the chart card's data dialog shows 15 rows a page. */
export const DATA_DIALOG_PAGE_SIZE = 15;

/** How many pages `count` rows fill (at least one, so an empty table still has page 1). */
export function pageCount(count: number, size = DATA_DIALOG_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(count / size));
}

/** The rows of 1-based `page`, the page clamped to the ones that exist. */
export function pageOf<T>(rows: readonly T[], page: number, size = DATA_DIALOG_PAGE_SIZE): T[] {
  const last = pageCount(rows.length, size);
  const current = Math.min(Math.max(1, Math.floor(page)), last);
  return rows.slice((current - 1) * size, current * size);
}

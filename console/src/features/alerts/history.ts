import type { AlertHistoryRow, AlertStatus } from '@flightdeck/schemas';

/** The history filters the page applies itself (the api filters by server and type). */
export interface HistoryRowFilters {
  /** Worst level reached; '' for any. */
  status: AlertStatus | '';
  state: 'all' | 'open' | 'resolved';
  /** Words to find in the server, service, type title, text or series labels; case-insensitive. */
  text: string;
}

/** Rows that pass the filters, in the api's order (newest first). */
export function filterHistory(
  rows: readonly AlertHistoryRow[],
  filters: HistoryRowFilters,
  typeTitle: (typeId: number) => string,
): AlertHistoryRow[] {
  const words = filters.text.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((row) => {
    if (filters.status && row.status !== filters.status) return false;
    if (filters.state === 'open' && row.date_exit !== null) return false;
    if (filters.state === 'resolved' && row.date_exit === null) return false;
    if (words.length === 0) return true;
    const haystack = [
      row.server_name,
      row.service ?? '',
      typeTitle(row.type),
      row.alert_text,
      row.labels,
      row.metric,
    ]
      .join(' ')
      .toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

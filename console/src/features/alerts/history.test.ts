import type { AlertHistoryRow } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { filterHistory } from './history';

function row(partial: Partial<AlertHistoryRow>): AlertHistoryRow {
  return {
    historic_id: 1,
    alert_id: 1,
    server_id: 1,
    server_name: 'db-1',
    service: null,
    type: 7,
    status: 'Y',
    last_status: 'Y',
    event: 'new',
    date_enter: 100,
    date_exit: null,
    alert_text: 'CPU above 80 %',
    metric: 'cpu.total',
    labels: '',
    value: 85,
    acknowledged_until: null,
    ack_by: null,
    ack_comment: null,
    notified: true,
    dynamic: null,
    ...partial,
  };
}

describe('alert history filters', () => {
  const rows = [
    row({ historic_id: 1, status: 'R', date_exit: 200 }),
    row({ historic_id: 2, server_name: 'web-1', alert_text: 'Disk full', labels: 'mount=/data' }),
    row({ historic_id: 3, status: 'Y', date_exit: 300 }),
  ];
  const title = () => 'High CPU';
  const ids = (out: AlertHistoryRow[]) => out.map((r) => r.historic_id);

  it('keeps every row with no filter, in order', () => {
    expect(ids(filterHistory(rows, { status: '', state: 'all', text: '' }, title))).toEqual([1, 2, 3]);
  });

  it('filters by worst level and by open or resolved', () => {
    expect(ids(filterHistory(rows, { status: 'R', state: 'all', text: '' }, title))).toEqual([1]);
    expect(ids(filterHistory(rows, { status: '', state: 'open', text: '' }, title))).toEqual([2]);
    expect(ids(filterHistory(rows, { status: 'Y', state: 'resolved', text: '' }, title))).toEqual([3]);
  });

  it('finds every word in the server, text, labels or type title, ignoring case', () => {
    expect(ids(filterHistory(rows, { status: '', state: 'all', text: 'WEB /data' }, title))).toEqual([2]);
    expect(ids(filterHistory(rows, { status: '', state: 'all', text: 'high db-1' }, title))).toEqual([1, 3]);
  });
});

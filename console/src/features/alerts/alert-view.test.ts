import type { AlertGroup, AlertItem } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  alertTypeLabel,
  chipGroups,
  flattenAlerts,
  labelsText,
  orderGroups,
  unacknowledged,
} from './alert-view';

let nextId = 1;
function alert(partial: Partial<AlertItem> = {}): AlertItem {
  const id = nextId++;
  return {
    id,
    historic_id: id + 1000,
    service: null,
    type: 7,
    status: 'Y',
    date_enter: 1_700_000_000,
    alert_text: `alert ${id}`,
    metric: 'cpu.total',
    labels: '',
    value: 50,
    event: 'new',
    acknowledged: false,
    ack_until: null,
    ack_by: null,
    ack_comment: null,
    alerts: [],
    dynamic: null,
    ...partial,
  };
}

function group(name: string, id: number, status: AlertGroup['status'], alerts: AlertItem[]): AlertGroup {
  return { server_name: name, server_id: id, status, alerts };
}

describe('alert groups', () => {
  it('puts the most severe server first, then by name', () => {
    const groups = [
      group('web', 2, 'Y', [alert()]),
      group('db', 3, 'R', [alert({ status: 'R' })]),
      group('app', 1, 'Y', [alert()]),
      group('all-acked', 4, 'G', [alert({ acknowledged: true, ack_until: 1 })]),
    ];
    expect(orderGroups(groups).map((g) => g.server_name)).toEqual(['db', 'app', 'web', 'all-acked']);
  });

  it('lists alerts waiting for someone before acknowledged ones, most severe and oldest first', () => {
    const acked = alert({ status: 'R', acknowledged: true, ack_until: 2 });
    const oldYellow = alert({ status: 'Y', date_enter: 100 });
    const newYellow = alert({ status: 'Y', date_enter: 200 });
    const red = alert({ status: 'R', date_enter: 300 });
    const [only] = orderGroups([group('a', 1, 'R', [acked, newYellow, red, oldYellow])]);
    expect(only?.alerts.map((a) => a.id)).toEqual([red.id, oldYellow.id, newYellow.id, acked.id]);
  });

  it('counts nested alerts and leaves acknowledged ones out of the chip', () => {
    const nested = alert({ labels: 'core=1' });
    const head = alert({ alerts: [nested, alert({ acknowledged: true, ack_until: 9 })] });
    const groups = [group('a', 1, 'Y', [head])];
    expect(flattenAlerts(groups[0]!.alerts)).toHaveLength(3);
    expect(unacknowledged(groups).map((a) => a.id)).toEqual([head.id, nested.id]);
  });

  it('hides acknowledged alerts from the chip list, keeping nested ones that are not', () => {
    const nested = alert({ labels: 'core=0' });
    const ackedHead = alert({ acknowledged: true, ack_until: 5, alerts: [nested] });
    const allAcked = group('quiet', 2, 'G', [alert({ acknowledged: true, ack_until: 5 })]);
    const result = chipGroups([group('busy', 1, 'Y', [ackedHead]), allAcked]);
    expect(result.map((g) => g.server_name)).toEqual(['busy']);
    expect(result[0]?.alerts.map((a) => a.id)).toEqual([nested.id]);
  });
});

describe('texts', () => {
  it('names an alert type in the reader language and an unknown id by number', () => {
    expect(alertTypeLabel(1, 'en')).toBe('Server unreachable');
    expect(alertTypeLabel(1, 'pt')).toBe('Servidor inacessível');
    expect(alertTypeLabel(99, 'en')).toBe('#99');
  });

  it('reads series labels as words', () => {
    expect(labelsText('')).toBe('');
    expect(labelsText('device=sda,mount=/data,x')).toBe('device sda, mount /data,x');
  });
});

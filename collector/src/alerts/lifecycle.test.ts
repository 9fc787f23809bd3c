import { describe, expect, it } from 'vitest';
import { createAlertBook } from './lifecycle';
import type { RuleLevel, RuleTransition, ThresholdRule } from './rules';

const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);
const MIN = 60_000;
const HOUR = 3_600_000;

const rule: ThresholdRule = {
  id: 7,
  tenant: 't1',
  host: null,
  service: null,
  metric: 'cpu.used_pct',
  labels: null,
  operator: 'gt',
  warning: 70,
  critical: 90,
  recovery: null,
  forMs: 0,
};

function tr(from: RuleLevel, to: RuleLevel, ts: number, over: Partial<RuleTransition> = {}): RuleTransition {
  return {
    rule,
    tenant: 't1',
    host: 'h1',
    service: '',
    metric: 'cpu.used_pct',
    labels: '',
    from,
    to,
    value: to === 'R' ? 95 : to === 'Y' ? 75 : 10,
    ts,
    ...over,
  };
}

describe('alert lifecycle', () => {
  it('opens, updates and resolves one alert per series, with one history id', () => {
    const book = createAlertBook();
    const opened = book.apply(tr('G', 'Y', T0))!;
    expect(opened).toMatchObject({ event: 'new', notify: true, alert: { level: 'Y', enteredAt: T0 } });
    const worse = book.apply(tr('Y', 'R', T0 + MIN))!;
    expect(worse).toMatchObject({ event: 'updated', notify: true, alert: { level: 'R' } });
    const eased = book.apply(tr('R', 'Y', T0 + 2 * MIN))!;
    expect(eased).toMatchObject({ event: 'updated', notify: false, quiet: 'eased' });
    const resolved = book.apply(tr('Y', 'G', T0 + 3 * MIN))!;
    expect(resolved).toMatchObject({ event: 'resolved', notify: true, exitAt: T0 + 3 * MIN });
    expect(new Set([opened, worse, eased, resolved].map((c) => c.alert.historicId)).size).toBe(1);
    expect(book.open()).toEqual([]);
  });

  it('calls an alert that comes back within the hour recurring, and a later one new', () => {
    const book = createAlertBook();
    book.apply(tr('G', 'R', T0));
    book.apply(tr('R', 'G', T0 + MIN));
    expect(book.apply(tr('G', 'R', T0 + 30 * MIN))).toMatchObject({ event: 'recurring', notify: true });
    book.apply(tr('R', 'G', T0 + 31 * MIN));
    expect(book.apply(tr('G', 'R', T0 + 31 * MIN + 2 * HOUR))).toMatchObject({ event: 'new' });
  });

  it('hides an acknowledged alert from the chip until the time runs out, and tells nothing meanwhile', () => {
    const book = createAlertBook();
    const { alert } = book.apply(tr('G', 'Y', T0))!;
    expect(book.unacknowledged('t1', T0)).toHaveLength(1);
    const ack = book.acknowledge(alert.historicId, 2, 'ana', 'looking at it', T0 + MIN)!;
    expect(ack).toMatchObject({
      event: 'acknowledged',
      alert: { ackBy: 'ana', ackComment: 'looking at it' },
    });
    expect(book.unacknowledged('t1', T0 + MIN)).toEqual([]);
    expect(book.apply(tr('Y', 'R', T0 + 10 * MIN))).toMatchObject({ notify: false, quiet: 'acknowledged' });
    expect(book.expireAcknowledgements(T0 + HOUR)).toEqual([]);
    expect(book.expireAcknowledgements(T0 + MIN + 2 * HOUR)).toHaveLength(1);
    expect(book.unacknowledged('t1', T0 + MIN + 2 * HOUR)).toHaveLength(1);
    expect(book.acknowledge(999, 1, 'ana', null, T0)).toBeNull();
  });

  it('ends an acknowledgement early when the alert resolves, and tells the recovery', () => {
    const book = createAlertBook();
    const { alert } = book.apply(tr('G', 'R', T0))!;
    book.acknowledge(alert.historicId, 24, 'ana', null, T0);
    const resolved = book.apply(tr('R', 'G', T0 + MIN))!;
    expect(resolved).toMatchObject({ event: 'resolved', notify: true, alert: { ackUntil: null } });
    expect(book.apply(tr('G', 'R', T0 + 2 * MIN))).toMatchObject({ event: 'recurring', notify: true });
  });

  it('records but does not notify alerts in a maintenance window', () => {
    const book = createAlertBook();
    expect(book.apply(tr('G', 'R', T0), { inMaintenance: true })).toMatchObject({
      event: 'new',
      notify: false,
      quiet: 'maintenance',
    });
    expect(book.open()).toHaveLength(1);
    expect(book.apply(tr('R', 'G', T0 + MIN), { inMaintenance: true })).toMatchObject({ notify: false });
  });

  it('links a service alert to its host being unreachable and keeps it off the chip and the notifications', () => {
    const book = createAlertBook();
    const change = book.apply(tr('G', 'R', T0, { service: 'mysql' }), { hostDownAlert: 41 })!;
    expect(change).toMatchObject({ notify: false, quiet: 'suppressed', alert: { suppressedBy: 41 } });
    expect(book.unacknowledged('t1', T0)).toEqual([]);
  });

  it('keeps series and tenants apart', () => {
    const book = createAlertBook();
    book.apply(tr('G', 'R', T0, { labels: 'mount=/' }));
    book.apply(tr('G', 'R', T0, { labels: 'mount=/data' }));
    book.apply(tr('G', 'R', T0, { tenant: 't2' }));
    expect(book.open('t1')).toHaveLength(2);
    expect(book.open('t2')).toHaveLength(1);
  });

  it('starts again from a saved state: open alerts, acknowledgements and recurrence survive a restart', () => {
    const first = createAlertBook();
    const { alert } = first.apply(tr('G', 'R', T0))!;
    first.acknowledge(alert.historicId, 6, 'ana', null, T0);
    first.apply(tr('G', 'R', T0, { labels: 'x=1' }));
    first.apply(tr('R', 'G', T0 + MIN, { labels: 'x=1' }));
    const second = createAlertBook({ state: JSON.parse(JSON.stringify(first.state())) });
    expect(second.open()).toHaveLength(1);
    expect(second.unacknowledged('t1', T0 + HOUR)).toEqual([]);
    expect(second.apply(tr('G', 'R', T0 + 2 * MIN, { labels: 'x=1' }))).toMatchObject({ event: 'recurring' });
    // The alert opened before the restart resolves in the new book.
    expect(second.apply(tr('R', 'G', T0 + 3 * MIN))).toMatchObject({ event: 'resolved' });
    expect(second.state().nextHistoricId).toBeGreaterThan(alert.historicId + 1);
  });
});

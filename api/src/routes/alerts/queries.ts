import {
  type AlertCountData,
  type AlertGroup,
  type AlertHistoricRequest,
  type AlertHistoryRow,
  type AlertItem,
  type AlertLifecycle,
  type AlertStatus,
  alertStatusRank,
  combineStatus,
  DEFAULT_ALERT_HISTORIC_GROUP_MINUTES,
  DynamicReason,
  MAX_HISTORY_ROWS,
  rollUpList,
  type ServerAlertHistoricData,
  type ServerAlertHistoricRequest,
} from '@flightdeck/schemas';
import type { Db } from '../../db/kysely';
import type { AlertHistoryRowDb, AlertRow } from '../../db/types';

/** Why a dynamic threshold fired, as stored (JSON of {@link DynamicReason}); null for a defined one. */
export function parseDynamic(stored: string | null): DynamicReason | null {
  return stored === null ? null : DynamicReason.parse(JSON.parse(stored));
}

/** An open alert as lists show it; `alerts` (nested) is filled by {@link groupAlerts}. */
export function toAlertItem(row: AlertRow, nowS: number): AlertItem {
  const acknowledged = row.ack_until !== null && row.ack_until > nowS;
  return {
    id: row.id,
    historic_id: row.historic_id,
    service: row.service === '' ? null : row.service,
    type: row.type_id,
    status: row.level,
    date_enter: Math.floor(row.entered_at_ms / 1000),
    alert_text: row.text,
    metric: row.metric,
    labels: row.labels,
    value: row.value,
    event: row.event as AlertLifecycle,
    acknowledged,
    ack_until: acknowledged ? row.ack_until : null,
    ack_by: acknowledged ? row.ack_by : null,
    ack_comment: acknowledged ? row.ack_comment : null,
    dynamic: parseDynamic(row.dynamic),
    alerts: [],
  };
}

/** Most severe first, then the oldest first. */
const bySeverity = (a: AlertItem, b: AlertItem) =>
  alertStatusRank(a.status) - alertStatusRank(b.status) || a.date_enter - b.date_enter || a.id - b.id;

/**
 * Alerts of one server as the group lists them: one entry per service and alert type, the most
 * severe on top carrying the others of the same kind (several mounts, several interfaces).
 */
export function groupAlerts(items: AlertItem[]): AlertItem[] {
  const heads = new Map<string, AlertItem>();
  const out: AlertItem[] = [];
  for (const item of [...items].sort(bySeverity)) {
    const key = `${item.service ?? ''}\0${item.type}`;
    const head = heads.get(key);
    if (head) head.alerts.push(item);
    else {
      heads.set(key, item);
      out.push(item);
    }
  }
  return out;
}

/** Roll-up of a server: the alerts that are not acknowledged (R, Y, B, P, G). */
function groupStatus(items: readonly AlertItem[]): AlertStatus {
  return rollUpList(items.filter((i) => !i.acknowledged).map((i) => i.status));
}

/** `alerts/list`: one group per server with open alerts, most severe first. */
export async function listAlertGroups(db: Db, customerId: number, nowS: number): Promise<AlertGroup[]> {
  const rows = await db
    .selectFrom('alerts as a')
    .innerJoin('servers as s', (j) =>
      j.onRef('s.id', '=', 'a.server_id').onRef('s.customer_id', '=', 'a.customer_id'),
    )
    .selectAll('a')
    .select(['s.name as server_name', 's.hostname as server_hostname'])
    .where('a.customer_id', '=', customerId)
    .orderBy('a.server_id')
    .orderBy('a.id')
    .execute();
  const byServer = new Map<number, { name: string; items: AlertItem[] }>();
  for (const row of rows) {
    let group = byServer.get(row.server_id);
    if (!group) {
      group = { name: row.server_name ?? row.server_hostname, items: [] };
      byServer.set(row.server_id, group);
    }
    group.items.push(toAlertItem(row, nowS));
  }
  const groups: AlertGroup[] = [...byServer].map(([serverId, g]) => ({
    server_name: g.name,
    server_id: serverId,
    status: groupStatus(g.items),
    alerts: groupAlerts(g.items),
  }));
  return groups.sort(
    (a, b) =>
      alertStatusRank(a.status) - alertStatusRank(b.status) || a.server_name.localeCompare(b.server_name),
  );
}

/** `alerts/count`: what the chip shows. */
export async function countAlerts(db: Db, customerId: number, nowS: number): Promise<AlertCountData> {
  const rows = await db
    .selectFrom('alerts')
    .select(['level', 'ack_until'])
    .where('customer_id', '=', customerId)
    .execute();
  const open = rows.filter((r) => r.ack_until === null || r.ack_until <= nowS);
  return {
    open: rows.length,
    unacknowledged: open.length,
    acknowledged: rows.length - open.length,
    status: rows.length === 0 ? 'G' : rollUpList(open.map((r) => r.level)),
  };
}

function historyQuery(db: Db, customerId: number, start: number, end: number) {
  const [from, to] = start <= end ? [start, end] : [end, start];
  return db
    .selectFrom('alert_history as h')
    .innerJoin('servers as s', (j) =>
      j.onRef('s.id', '=', 'h.server_id').onRef('s.customer_id', '=', 'h.customer_id'),
    )
    .selectAll('h')
    .select(['s.name as server_name', 's.hostname as server_hostname'])
    .where('h.customer_id', '=', customerId)
    .where('h.date_enter', '<=', to)
    .where((eb) => eb.or([eb('h.date_exit', 'is', null), eb('h.date_exit', '>=', from)]));
}

/** An occurrence as history lists show it, from its row and its server's names. */
export function toHistoryRow(
  h: AlertHistoryRowDb & { server_name: string | null; server_hostname: string },
): AlertHistoryRow {
  return {
    historic_id: h.id,
    alert_id: h.alert_id,
    server_id: h.server_id,
    server_name: h.server_name ?? h.server_hostname,
    service: h.service === '' ? null : h.service,
    type: h.type_id,
    status: h.level,
    last_status: h.last_level,
    event: h.event as AlertLifecycle,
    date_enter: h.date_enter,
    date_exit: h.date_exit,
    alert_text: h.text,
    metric: h.metric,
    labels: h.labels,
    value: h.value,
    acknowledged_until: h.acknowledged_until,
    ack_by: h.ack_by,
    ack_comment: h.ack_comment,
    notified: h.notified === 1,
    dynamic: parseDynamic(h.dynamic),
  };
}

/** `alerts/get_historic`: occurrences overlapping the range, newest first. */
export async function alertHistory(
  db: Db,
  customerId: number,
  req: AlertHistoricRequest,
): Promise<AlertHistoryRow[]> {
  let q = historyQuery(db, customerId, req.start, req.end);
  if (req.server_id !== undefined) q = q.where('h.server_id', '=', req.server_id);
  if (req.type_id !== undefined) q = q.where('h.type_id', '=', req.type_id);
  if (req.service !== undefined) q = q.where('h.service', '=', req.service);
  const rows = await q
    .orderBy('h.date_enter', 'desc')
    .orderBy('h.id', 'desc')
    .limit(req.limit ?? MAX_HISTORY_ROWS)
    .execute();
  return rows.map(toHistoryRow);
}

/** Occurrences read for one `/server/get_alert_historic` answer at most. */
const MAX_BUCKETED_ROWS = 5_000;

/**
 * `/server/get_alert_historic`: a server's occurrences over the range, counted per time bucket
 * (default 5 minutes), service and alert type, with the most severe level in the bucket.
 */
export async function serverAlertHistoric(
  db: Db,
  customerId: number,
  req: ServerAlertHistoricRequest,
  nowS: number,
): Promise<ServerAlertHistoricData> {
  const minutes = req.time_grouping ?? DEFAULT_ALERT_HISTORIC_GROUP_MINUTES;
  const width = minutes * 60;
  const [from, to] = req.start <= req.end ? [req.start, req.end] : [req.end, req.start];
  const rows = await historyQuery(db, customerId, from, to)
    .where('h.server_id', '=', req.server_id)
    .orderBy('h.date_enter')
    .limit(MAX_BUCKETED_ROWS)
    .execute();
  const buckets = new Map<
    string,
    { timestamp: number; service: string | null; alert_id: number; levels: AlertStatus[]; count: number }
  >();
  for (const h of rows) {
    const first = Math.floor(Math.max(from, h.date_enter) / width) * width;
    const last = Math.min(to, h.date_exit ?? nowS);
    for (let b = first; b <= last; b += width) {
      const key = `${b}\0${h.service}\0${h.type_id}`;
      const bucket = buckets.get(key);
      if (bucket) {
        bucket.count++;
        bucket.levels.push(h.level);
      } else {
        buckets.set(key, {
          timestamp: b,
          service: h.service === '' ? null : h.service,
          alert_id: h.type_id,
          levels: [h.level],
          count: 1,
        });
      }
    }
  }
  const out = [...buckets.values()]
    .map((b) => ({
      timestamp: b.timestamp,
      service: b.service,
      alert_id: b.alert_id,
      status: combineStatus(b.levels),
      count: b.count,
    }))
    .sort((a, b) => a.timestamp - b.timestamp || a.alert_id - b.alert_id);
  return { server_id: req.server_id, time_grouping: minutes, rows: out };
}

import {
  ALERT_TYPES,
  alertTypeText,
  type CompareOperator,
  DEFAULT_DYNAMIC_SENSITIVITY,
  DefinedThresholdRequest,
  type DynamicThresholdRequest,
  type Labels,
  SERVICE_UP_METRIC,
  type ServerThreshold,
  type Threshold,
  type WireAlertRule,
} from '@flightdeck/schemas';
import { sql } from 'kysely';
import type { Db } from '../../db/kysely';
import type { AlertThresholdRow } from '../../db/types';
import { ApiError } from '../../errors';

/**
 * Alert type of a threshold created without one: among the types watching the metric (else a
 * metric of the same family, as `cpu.steal` is a CPU alert) the first whose message reads the
 * operator's way ("above" for gt/gte, "below" for lt/lte), else the first; "monitoring" when none.
 */
export function defaultTypeFor(metric: string, operator: CompareOperator): number {
  const family = `${metric.slice(0, metric.indexOf('.'))}.`;
  const metricsOf = (t: (typeof ALERT_TYPES)[number]) => t.metrics as readonly string[];
  let candidates = ALERT_TYPES.filter((t) => metricsOf(t).includes(metric));
  if (candidates.length === 0)
    candidates = ALERT_TYPES.filter((t) => metricsOf(t).some((m) => m.startsWith(family)));
  const word =
    operator === 'gt' || operator === 'gte'
      ? 'above'
      : operator === 'lt' || operator === 'lte'
        ? 'below'
        : null;
  const reads = word ? candidates.find((t) => alertTypeText(t.id, 'en').includes(word)) : undefined;
  return reads?.id ?? candidates[0]?.id ?? 21;
}

/** Labels as stored: JSON with keys sorted, or '' for none. */
export function labelsText(labels: Labels | null | undefined): string {
  if (!labels || Object.keys(labels).length === 0) return '';
  const sorted: Labels = {};
  for (const k of Object.keys(labels).sort()) sorted[k] = labels[k]!;
  return JSON.stringify(sorted);
}

function labelsOf(text: string): Labels | null {
  return text === '' ? null : (JSON.parse(text) as Labels);
}

/** What makes a threshold unique within a customer. */
export function scopeKey(
  serverId: number | null,
  service: string,
  metric: string,
  labels: string,
  mode: string,
): string {
  return JSON.stringify([serverId ?? '*', service, metric, labels, mode]);
}

/** What a server-specific threshold shadows on an all-servers one: the same series. */
const seriesKey = (customerId: number, service: string, metric: string, labels: string) =>
  JSON.stringify([customerId, service, metric, labels]);

export function toThreshold(row: AlertThresholdRow): Threshold {
  return {
    id: row.id,
    server_id: row.server_id,
    service: row.service === '' ? null : row.service,
    metric: row.metric,
    labels: labelsOf(row.labels),
    mode: row.mode,
    operator: row.operator as CompareOperator,
    yellow: row.yellow,
    red: row.red,
    recovery: row.recovery,
    for_s: row.for_s,
    type_id: row.type_id,
    enabled: row.enabled === 1,
    sensitivity: row.sensitivity,
    direction: row.direction,
    updated_at: Math.floor(row.updated_at_ms / 1000),
  };
}

export async function thresholdOr404(db: Db, customerId: number, id: number): Promise<AlertThresholdRow> {
  const row = await db
    .selectFrom('alert_thresholds')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw ApiError.of('not_found', 'This threshold could not be found.');
  return row;
}

/** The thresholds that apply to a server: its own and the all-servers ones, by metric. */
export async function serverThresholds(
  db: Db,
  customerId: number,
  serverId: number,
): Promise<ServerThreshold[]> {
  const rows = await db
    .selectFrom('alert_thresholds')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where((eb) => eb.or([eb('server_id', '=', serverId), eb('server_id', 'is', null)]))
    .orderBy('metric')
    .orderBy('id')
    .execute();
  // Per metric the server's own first, then the all-servers ones (engines order nulls differently).
  rows.sort(
    (x, y) =>
      (x.metric < y.metric ? -1 : x.metric > y.metric ? 1 : 0) ||
      Number(x.server_id === null) - Number(y.server_id === null) ||
      x.id - y.id,
  );
  const own = new Set(
    rows
      .filter((r) => r.server_id !== null && r.enabled === 1)
      .map((r) => seriesKey(customerId, r.service, r.metric, r.labels)),
  );
  return rows.map((r) => ({
    ...toThreshold(r),
    shadowed: r.server_id === null && own.has(seriesKey(customerId, r.service, r.metric, r.labels)),
  }));
}

export interface SavedThreshold {
  row: AlertThresholdRow;
  /** The series it watches changed (or it is new): open alerts of the old series must resolve. */
  seriesChanged: boolean;
}

type ThresholdFields = Omit<AlertThresholdRow, 'id' | 'customer_id' | 'created_at' | 'created_by'>;

/**
 * The `updated_at_ms` of a change: now, or just after the newest change when the clock has not
 * moved past it, so every change moves the rules version.
 */
export async function nextStamp(db: Db, now: number): Promise<number> {
  const row = await db
    .selectFrom('alert_thresholds')
    .select(sql<number | null>`max(updated_at_ms)`.as('max_ms'))
    .executeTakeFirst();
  return Math.max(now, Number(row?.max_ms ?? 0) + 1);
}

/** Inserts, or updates the row with `id` (or the one with the same scope), in one transaction. */
async function save(
  db: Db,
  customerId: number,
  userId: number,
  id: number | undefined,
  fields: ThresholdFields,
  now: number,
): Promise<SavedThreshold> {
  return db.transaction().execute(async (trx) => {
    fields = { ...fields, updated_at_ms: await nextStamp(trx, fields.updated_at_ms) };
    const sameScope = await trx
      .selectFrom('alert_thresholds')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('scope_key', '=', fields.scope_key)
      .executeTakeFirst();
    let previous: AlertThresholdRow | undefined;
    if (id !== undefined) {
      previous = await thresholdOr404(trx, customerId, id);
      if (sameScope && sameScope.id !== id) {
        throw ApiError.of(
          'conflict',
          `Threshold ${sameScope.id} already watches this metric with the same scope; change that one instead.`,
        );
      }
    } else {
      previous = sameScope;
    }
    if (previous) {
      const row = await trx
        .updateTable('alert_thresholds')
        .set(fields)
        .where('customer_id', '=', customerId)
        .where('id', '=', previous.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const seriesChanged =
        previous.server_id !== row.server_id ||
        previous.service !== row.service ||
        previous.metric !== row.metric ||
        previous.labels !== row.labels ||
        previous.mode !== row.mode;
      return { row, seriesChanged };
    }
    const row = await trx
      .insertInto('alert_thresholds')
      .values({ ...fields, customer_id: customerId, created_by: userId, created_at: Math.floor(now / 1000) })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, seriesChanged: true };
  });
}

/** The stored fields of a defined threshold request. */
function definedFields(req: DefinedThresholdRequest, now: number): ThresholdFields {
  const serverId = req.server_id ?? null;
  const service = req.service ?? '';
  const labels = labelsText(req.labels);
  const bool = req.operator === 'bool' || req.operator === 'not_bool';
  return {
    server_id: serverId,
    service,
    metric: req.metric,
    labels,
    scope_key: scopeKey(serverId, service, req.metric, labels, 'defined'),
    mode: 'defined',
    operator: req.operator,
    yellow: bool ? null : (req.yellow ?? null),
    red: bool ? null : (req.red ?? null),
    recovery: bool ? null : (req.recovery ?? null),
    for_s: req.for_s ?? 0,
    type_id: req.type_id ?? defaultTypeFor(req.metric, req.operator),
    enabled: req.enabled === false ? 0 : 1,
    sensitivity: null,
    direction: null,
    updated_at_ms: now,
  };
}

/** `defined_threshold`: creates or replaces a defined threshold. */
export function saveDefinedThreshold(
  db: Db,
  customerId: number,
  userId: number,
  req: DefinedThresholdRequest,
  now: number,
): Promise<SavedThreshold> {
  return save(db, customerId, userId, req.id, definedFields(req, now), now);
}

/** Alert type of the availability threshold: "server unreachable". */
const SERVER_UNREACHABLE_TYPE = 1;

/**
 * The threshold every agentless service gets: `service.up` below 1 (a poll that did not reach the
 * target) raises a red "server unreachable" alert of the service's server at once, and the first
 * poll that reaches it again resolves it. No recovery level: on a 0/1 metric none could be crossed
 * back over ("less than" rules recover above their recovery level). It is an ordinary defined
 * threshold, listed, changed and disabled like the others.
 */
export function availabilityThreshold(serverId: number, service: string): DefinedThresholdRequest {
  return DefinedThresholdRequest.parse({
    server_id: serverId,
    service,
    metric: SERVICE_UP_METRIC,
    operator: 'lt',
    red: 1,
    for_s: 0,
    type_id: SERVER_UNREACHABLE_TYPE,
    enabled: true,
  });
}

/**
 * Inserts a defined threshold (`db` may be the caller's transaction) unless one already watches
 * the same scope: that one is kept as it is, the user may have changed or disabled it. Returns the
 * new row, or undefined when there was one already.
 */
export async function insertDefinedThresholdIfMissing(
  db: Db,
  customerId: number,
  userId: number | null,
  req: DefinedThresholdRequest,
  now: number,
): Promise<AlertThresholdRow | undefined> {
  const fields = definedFields(req, now);
  return db
    .insertInto('alert_thresholds')
    .values({
      ...fields,
      updated_at_ms: await nextStamp(db, now),
      customer_id: customerId,
      created_by: userId,
      created_at: Math.floor(now / 1000),
    })
    .onConflict((oc) => oc.columns(['customer_id', 'scope_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** An agentless service, by the ids its availability threshold needs. */
export interface AgentlessServiceRef {
  customer_id: number;
  server_id: number;
  service_code: string;
}

/**
 * Creates the availability threshold of each service that has none (services registered before
 * agentless targets got one with their registration). Returns how many were created.
 */
export async function ensureAvailabilityThresholds(
  db: Db,
  services: readonly AgentlessServiceRef[],
  now: number,
): Promise<number> {
  if (services.length === 0) return 0;
  const customers = [...new Set(services.map((s) => s.customer_id))];
  const existing = await db
    .selectFrom('alert_thresholds')
    .select(['customer_id', 'scope_key'])
    .where('customer_id', 'in', customers)
    .where('metric', '=', SERVICE_UP_METRIC)
    .execute();
  const have = new Set(existing.map((r) => `${r.customer_id}\0${r.scope_key}`));
  let created = 0;
  for (const s of services) {
    const req = availabilityThreshold(s.server_id, s.service_code);
    const key = `${s.customer_id}\0${definedFields(req, now).scope_key}`;
    if (have.has(key)) continue;
    have.add(key);
    if (await insertDefinedThresholdIfMissing(db, s.customer_id, null, req, now)) created++;
  }
  return created;
}

/** `dynamic_threshold`: turns dynamic mode on (or off) for a metric of a server. */
export function saveDynamicThreshold(
  db: Db,
  customerId: number,
  userId: number,
  req: DynamicThresholdRequest,
  now: number,
): Promise<SavedThreshold> {
  const service = req.service ?? '';
  const labels = labelsText(req.labels);
  const direction = req.direction ?? 'above';
  return save(
    db,
    customerId,
    userId,
    undefined,
    {
      server_id: req.server_id,
      service,
      metric: req.metric,
      labels,
      scope_key: scopeKey(req.server_id, service, req.metric, labels, 'dynamic'),
      mode: 'dynamic',
      operator: direction === 'below' ? 'lt' : 'gt',
      yellow: null,
      red: null,
      recovery: null,
      for_s: req.for_s ?? 0,
      type_id: req.type_id ?? defaultTypeFor(req.metric, direction === 'below' ? 'lt' : 'gt'),
      enabled: req.enabled === false ? 0 : 1,
      sensitivity: req.sensitivity ?? DEFAULT_DYNAMIC_SENSITIVITY,
      direction,
      updated_at_ms: now,
    },
    now,
  );
}

/**
 * The thresholds on every server that a server-specific threshold shadows there (same service,
 * metric and labels): their open alerts on that server must resolve when it is enabled.
 */
export async function shadowedBy(db: Db, row: AlertThresholdRow): Promise<number[]> {
  if (row.server_id === null || row.enabled !== 1) return [];
  const rows = await db
    .selectFrom('alert_thresholds')
    .select('id')
    .where('customer_id', '=', row.customer_id)
    .where('server_id', 'is', null)
    .where('service', '=', row.service)
    .where('metric', '=', row.metric)
    .where('labels', '=', row.labels)
    .execute();
  return rows.map((r) => r.id);
}

/** Version of every customer's rules: changes with any insert, update or delete of a threshold. */
export async function rulesVersion(db: Db): Promise<string> {
  const row = await db
    .selectFrom('alert_thresholds')
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number | null>`max(id)`.as('max_id'),
      sql<number | null>`max(updated_at_ms)`.as('max_ms'),
    ])
    .executeTakeFirstOrThrow();
  return `${Number(row.n)}.${Number(row.max_id ?? 0)}.${Number(row.max_ms ?? 0)}`;
}

/** Every enabled threshold of every customer, as the collectors evaluate them. */
export async function collectorRules(db: Db): Promise<WireAlertRule[]> {
  const rows = await db
    .selectFrom('alert_thresholds as t')
    .leftJoin('servers as s', (j) =>
      j.onRef('s.id', '=', 't.server_id').onRef('s.customer_id', '=', 't.customer_id'),
    )
    .selectAll('t')
    .select('s.host_key')
    .where('t.enabled', '=', 1)
    .orderBy('t.id')
    .execute();
  const overridden = new Map<string, string[]>();
  for (const r of rows) {
    if (r.server_id === null || r.host_key === null) continue;
    const key = seriesKey(r.customer_id, r.service, r.metric, r.labels);
    const hosts = overridden.get(key);
    if (hosts) hosts.push(r.host_key);
    else overridden.set(key, [r.host_key]);
  }
  const out: WireAlertRule[] = [];
  for (const r of rows) {
    // A threshold whose server is gone watches nothing.
    if (r.server_id !== null && r.host_key === null) continue;
    out.push({
      id: r.id,
      tenant: String(r.customer_id),
      host: r.server_id === null ? null : r.host_key,
      except_hosts:
        r.server_id === null
          ? (overridden.get(seriesKey(r.customer_id, r.service, r.metric, r.labels)) ?? [])
          : [],
      service: r.service === '' ? null : r.service,
      metric: r.metric,
      labels: labelsOf(r.labels),
      mode: r.mode,
      operator: r.operator as CompareOperator,
      warning: r.yellow,
      critical: r.red,
      recovery: r.recovery,
      for_ms: r.for_s * 1000,
      sensitivity: r.sensitivity,
      direction: r.direction,
      min_deviation: 0,
    });
  }
  return out;
}

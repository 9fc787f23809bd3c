import { z } from 'zod';
import { AlertStatus } from '../alert-status';
import { AlertTypeCategory, AlertTypeId } from '../alert-types';
import { ACKNOWLEDGE_HOURS, ALERT_LIFECYCLE_EVENTS, CompareOperator } from '../enums';
import { metricByName } from '../metrics-catalog';
import { Labels, MetricName } from '../wire';
import { RowId } from './servers';

/**
 * Alerts and thresholds (spec section 7, "Alerts and thresholds"; sections 3 and 4 for the alert
 * group, statuses and lifecycle; section 9 for the acknowledge choices), the live event stream
 * (`GET /api/events`), the e-mail integration (spec "Integrations") and the bus messages between
 * the collectors, which evaluate rules on every sample, and the api, which owns thresholds and
 * alerts. Times are unix seconds unless a name says otherwise (`_ms`). Bodies are strict.
 */

// ---------------------------------------------------------------------------------------------
// Thresholds

/** How a threshold decides: fixed yellow/red levels, or a band learnt from the series' own history. */
export const THRESHOLD_MODES = ['defined', 'dynamic'] as const;
export const ThresholdMode = z.enum(THRESHOLD_MODES);
export type ThresholdMode = z.infer<typeof ThresholdMode>;

/** Which side of a dynamic band raises. */
export const DYNAMIC_THRESHOLD_DIRECTIONS = ['above', 'below', 'both'] as const;
export const DynamicThresholdDirection = z.enum(DYNAMIC_THRESHOLD_DIRECTIONS);
export type DynamicThresholdDirection = z.infer<typeof DynamicThresholdDirection>;

/** Longest "for" duration a threshold may ask for: one day. */
export const MAX_THRESHOLD_FOR_S = 86_400;
/** Dynamic sensitivity bounds (k sigmas from the median). */
export const MIN_DYNAMIC_SENSITIVITY = 0.5;
export const MAX_DYNAMIC_SENSITIVITY = 10;
/** Sensitivity used when a dynamic threshold is turned on without one. */
export const DEFAULT_DYNAMIC_SENSITIVITY = 3;

/** A metric of the catalogue (schemas/metrics-catalog.ts). */
export const CatalogMetric = MetricName.refine((m) => metricByName(m) !== undefined, {
  message: 'not a metric of the catalogue',
});

/** A service code, as servers list them (`mysql`, `postgresql`, `nginx`...). */
const ServiceCode = z.string().trim().min(1).max(64);

/**
 * A threshold as calls return it. `server_id` null: it applies to every server of the customer.
 * `yellow`/`red` are the levels of a defined threshold (either may be null, not both, except for
 * the boolean operators, which are red when they fire); `recovery` is the level the value must
 * cross back over before an open alert resolves (null: as soon as no level holds). Dynamic
 * thresholds carry `sensitivity` and `direction` instead of levels.
 */
export const Threshold = z
  .object({
    id: z.number().int().positive(),
    server_id: z.number().int().positive().nullable(),
    service: z.string().nullable(),
    metric: z.string(),
    labels: Labels.nullable(),
    mode: ThresholdMode,
    operator: CompareOperator,
    yellow: z.number().nullable(),
    red: z.number().nullable(),
    recovery: z.number().nullable(),
    for_s: z.number().int().nonnegative(),
    type_id: z.number().int().positive(),
    enabled: z.boolean(),
    /** Dynamic mode only. */
    sensitivity: z.number().nullable(),
    direction: DynamicThresholdDirection.nullable(),
    /** Unix seconds of the last change. */
    updated_at: z.number().int(),
  })
  .strict();
export type Threshold = z.infer<typeof Threshold>;

/** `POST /server/get_thresholds_server` {server_id}. */
export const GetThresholdsServerRequest = z.object({ server_id: RowId }).strict();
export type GetThresholdsServerRequest = z.infer<typeof GetThresholdsServerRequest>;

/**
 * One threshold as it applies to a server. `shadowed` is true for an all-servers threshold the
 * server overrides with its own enabled one on the same metric, service and labels: only the
 * server's own is evaluated there.
 */
export const ServerThreshold = Threshold.extend({ shadowed: z.boolean() }).strict();
export type ServerThreshold = z.infer<typeof ServerThreshold>;

/** Data of `get_thresholds_server`: the server's own thresholds and the all-servers ones, by metric. */
export const GetThresholdsServerData = z
  .object({
    server_id: z.number().int().positive(),
    server_name: z.string(),
    thresholds: z.array(ServerThreshold),
  })
  .strict();
export type GetThresholdsServerData = z.infer<typeof GetThresholdsServerData>;

const BOOLEAN_OPERATORS = new Set(['bool', 'not_bool']);

/**
 * `POST /services_monitored/alerts/defined_threshold`: creates a threshold, or with `id` replaces
 * that one. `server_id` null (or absent) puts it on every server. `type_id` defaults to the first
 * alert type of the catalogue that watches the metric, else 21 (monitoring).
 */
export const DefinedThresholdRequest = z
  .object({
    id: RowId.optional(),
    server_id: RowId.nullable().optional(),
    service: ServiceCode.nullable().optional(),
    metric: CatalogMetric,
    labels: Labels.nullable().optional(),
    operator: CompareOperator,
    yellow: z.number().finite().nullable().optional(),
    red: z.number().finite().nullable().optional(),
    recovery: z.number().finite().nullable().optional(),
    for_s: z.number().int().min(0).max(MAX_THRESHOLD_FOR_S).optional(),
    type_id: AlertTypeId.optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (BOOLEAN_OPERATORS.has(t.operator)) return;
    const y = t.yellow ?? null;
    const r = t.red ?? null;
    if (y === null && r === null) {
      ctx.addIssue({ code: 'custom', path: ['red'], message: 'give a yellow level, a red level or both' });
      return;
    }
    const up = t.operator === 'gt' || t.operator === 'gte';
    const down = t.operator === 'lt' || t.operator === 'lte';
    if (y !== null && r !== null && ((up && r < y) || (down && r > y))) {
      ctx.addIssue({
        code: 'custom',
        path: ['red'],
        message: up
          ? 'the red level must not be below the yellow level'
          : 'the red level must not be above the yellow level',
      });
    }
    const rec = t.recovery ?? null;
    const first = y ?? r!;
    if (rec !== null && ((up && rec > first) || (down && rec < first))) {
      ctx.addIssue({
        code: 'custom',
        path: ['recovery'],
        message: up
          ? 'the recovery level must not be above the lowest alerting level'
          : 'the recovery level must not be below the highest alerting level',
      });
    }
  });
export type DefinedThresholdRequest = z.infer<typeof DefinedThresholdRequest>;

/** Data of `defined_threshold`, `alter_threshold` (except remove) and `dynamic_threshold`. */
export const ThresholdData = Threshold;
export type ThresholdData = z.infer<typeof ThresholdData>;

/** What `alter_threshold` does to a threshold. */
export const THRESHOLD_ACTIONS = ['enable', 'disable', 'remove'] as const;
export const ThresholdAction = z.enum(THRESHOLD_ACTIONS);
export type ThresholdAction = z.infer<typeof ThresholdAction>;

/**
 * `POST /services_monitored/alerts/alter_threshold` {id, action}. Disabling or removing a threshold
 * resolves its open alerts.
 */
export const AlterThresholdRequest = z.object({ id: RowId, action: ThresholdAction }).strict();
export type AlterThresholdRequest = z.infer<typeof AlterThresholdRequest>;

/** Data of `alter_threshold`: the threshold after the change, or `{id, removed: true}`. */
export const AlterThresholdData = z.union([
  Threshold,
  z.object({ id: z.number().int().positive(), removed: z.literal(true) }).strict(),
]);
export type AlterThresholdData = z.infer<typeof AlterThresholdData>;

/**
 * `POST /services_monitored/alerts/dynamic_threshold`: turns dynamic mode on (or, with
 * `enabled: false`, off) for a metric of a server. The band is learnt from the series' history and
 * the threshold raises once it is armed; until then it stays quiet.
 */
export const DynamicThresholdRequest = z
  .object({
    server_id: RowId,
    service: ServiceCode.nullable().optional(),
    metric: CatalogMetric,
    labels: Labels.nullable().optional(),
    sensitivity: z.number().min(MIN_DYNAMIC_SENSITIVITY).max(MAX_DYNAMIC_SENSITIVITY).optional(),
    direction: DynamicThresholdDirection.optional(),
    for_s: z.number().int().min(0).max(MAX_THRESHOLD_FOR_S).optional(),
    type_id: AlertTypeId.optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type DynamicThresholdRequest = z.infer<typeof DynamicThresholdRequest>;

// ---------------------------------------------------------------------------------------------
// Alerts

/** Lifecycle label of an alert, as lists show it. */
export const AlertLifecycle = z.enum(ALERT_LIFECYCLE_EVENTS);
export type AlertLifecycle = z.infer<typeof AlertLifecycle>;

/**
 * Why a dynamic threshold fired (collector/alerts/baseline.ts): the band the sample was judged
 * against, the season that band was learnt from (`season_key`: `mon-14`, `14` or `all`), the
 * algorithm and the score |value - median| / sigma.
 */
export const DynamicReason = z
  .object({
    algorithm: z.literal('seasonal-median-mad'),
    band: z.object({ lower: z.number(), median: z.number(), upper: z.number() }).strict(),
    season: z.enum(['hour_of_week', 'hour_of_day', 'global']),
    season_key: z.string().max(16),
    score: z.number(),
  })
  .strict();
export type DynamicReason = z.infer<typeof DynamicReason>;

/** One open alert of an alert group (spec section 3). */
export interface AlertItem {
  /** Id of the open alert (one per rule and series). */
  id: number;
  /** Id of this occurrence in the history: what `set_acknowledge` takes. */
  historic_id: number;
  service: string | null;
  /** Alert type id (1-49). */
  type: number;
  status: AlertStatus;
  /** Unix seconds the alert opened. */
  date_enter: number;
  alert_text: string;
  metric: string;
  /** Canonical labels of the series (`mount=/`), empty when it has none. */
  labels: string;
  /** The value that last changed it. */
  value: number;
  /** Last lifecycle label: new, updated, recurring or acknowledged. */
  event: AlertLifecycle;
  /** Acknowledged now: hidden from the chip until `ack_until`. */
  acknowledged: boolean;
  ack_until: number | null;
  ack_by: string | null;
  ack_comment: string | null;
  /** Why it fired, for a dynamic threshold (latest change); null for a defined one. */
  dynamic: DynamicReason | null;
  /** Other series of the same type and service on the server (e.g. several mounts), least severe last. */
  alerts: AlertItem[];
}
export const AlertItem: z.ZodType<AlertItem> = z.lazy(() =>
  z
    .object({
      id: z.number().int().positive(),
      historic_id: z.number().int().positive(),
      service: z.string().nullable(),
      type: z.number().int().positive(),
      status: AlertStatus,
      date_enter: z.number().int(),
      alert_text: z.string(),
      metric: z.string(),
      labels: z.string(),
      value: z.number(),
      event: AlertLifecycle,
      acknowledged: z.boolean(),
      ack_until: z.number().int().nullable(),
      ack_by: z.string().nullable(),
      ack_comment: z.string().nullable(),
      dynamic: DynamicReason.nullable(),
      alerts: z.array(AlertItem),
    })
    .strict(),
);

/**
 * Alerts of one server (spec "Alert group"). `status` rolls up the alerts that are not acknowledged
 * (precedence R, Y, B, P, G); a server whose alerts are all acknowledged is G.
 */
export const AlertGroup = z
  .object({
    server_name: z.string(),
    server_id: z.number().int().positive(),
    status: AlertStatus,
    alerts: z.array(AlertItem),
  })
  .strict();
export type AlertGroup = z.infer<typeof AlertGroup>;

/** `GET /services_monitored/alerts/list` → data: one group per server with open alerts, most severe first. */
export const AlertListData = z.array(AlertGroup);
export type AlertListData = z.infer<typeof AlertListData>;

/**
 * `GET /services_monitored/alerts/count` → data, for the status chip: open alerts, those not
 * acknowledged (what the chip shows: "99+" above 99, "Status Ok" at 0) and their roll-up status.
 */
export const AlertCountData = z
  .object({
    open: z.number().int().nonnegative(),
    unacknowledged: z.number().int().nonnegative(),
    acknowledged: z.number().int().nonnegative(),
    status: AlertStatus,
  })
  .strict();
export type AlertCountData = z.infer<typeof AlertCountData>;

/** Longest acknowledgement comment. */
export const MAX_ACK_COMMENT_LENGTH = 500;

/**
 * `POST /services_monitored/alerts/set_acknowledge`: hides an open alert from the chip for 1, 2, 6,
 * 12 or 24 hours. `hours` is also accepted as a numeric string.
 */
export const SetAcknowledgeRequest = z
  .object({
    historic_id: RowId,
    hours: z.coerce.number().pipe(z.literal(ACKNOWLEDGE_HOURS)),
    comment: z.string().trim().max(MAX_ACK_COMMENT_LENGTH).optional(),
  })
  .strict();
export type SetAcknowledgeRequest = z.infer<typeof SetAcknowledgeRequest>;

/** Data of `set_acknowledge`: the alert after it. */
export const SetAcknowledgeData = AlertItem;

/** Most history rows one call returns. */
export const MAX_HISTORY_ROWS = 1000;

/** A time range in unix seconds; `start` after `end` is swapped (spec section 5). */
const UnixRange = {
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
};

/** `POST /services_monitored/alerts/get_historic`: occurrences that overlap [start, end], newest first. */
export const AlertHistoricRequest = z
  .object({
    ...UnixRange,
    server_id: RowId.optional(),
    type_id: AlertTypeId.optional(),
    service: ServiceCode.optional(),
    limit: z.number().int().min(1).max(MAX_HISTORY_ROWS).optional(),
  })
  .strict();
export type AlertHistoricRequest = z.infer<typeof AlertHistoricRequest>;

/** One occurrence of an alert: from when it opened to when it resolved (null: still open). */
export const AlertHistoryRow = z
  .object({
    historic_id: z.number().int().positive(),
    alert_id: z.number().int().positive().nullable(),
    server_id: z.number().int().positive(),
    server_name: z.string(),
    service: z.string().nullable(),
    type: z.number().int().positive(),
    /** Most severe level it reached. */
    status: AlertStatus,
    /** Level at the end (or now). */
    last_status: AlertStatus,
    event: AlertLifecycle,
    date_enter: z.number().int(),
    date_exit: z.number().int().nullable(),
    alert_text: z.string(),
    metric: z.string(),
    labels: z.string(),
    value: z.number(),
    acknowledged_until: z.number().int().nullable(),
    ack_by: z.string().nullable(),
    ack_comment: z.string().nullable(),
    /** Whether its opening was notified (false in maintenance, while acknowledged...). */
    notified: z.boolean(),
    /** Why it fired, for a dynamic threshold (latest change); null for a defined one. */
    dynamic: DynamicReason.nullable(),
  })
  .strict();
export type AlertHistoryRow = z.infer<typeof AlertHistoryRow>;

export const AlertHistoricData = z.array(AlertHistoryRow);
export type AlertHistoricData = z.infer<typeof AlertHistoricData>;

/** Default bucket of `/server/get_alert_historic`, in minutes (the spec's "time grouping 5"). */
export const DEFAULT_ALERT_HISTORIC_GROUP_MINUTES = 5;

/**
 * `POST /server/get_alert_historic`: a server's alerts over [start, end] grouped by time bucket,
 * service and alert type (spec: fixed columns empty, time grouping 5).
 */
export const ServerAlertHistoricRequest = z
  .object({
    server_id: RowId,
    ...UnixRange,
    time_grouping: z.number().int().min(1).max(1440).optional(),
    fixed_columns: z.array(z.string().max(64)).max(16).optional(),
  })
  .strict();
export type ServerAlertHistoricRequest = z.infer<typeof ServerAlertHistoricRequest>;

/** One bucket: occurrences of an alert type on a service that were open during it. */
export const ServerAlertHistoricRow = z
  .object({
    /** Unix seconds of the bucket start. */
    timestamp: z.number().int(),
    service: z.string().nullable(),
    /** Alert type id. */
    alert_id: z.number().int().positive(),
    status: AlertStatus,
    count: z.number().int().positive(),
  })
  .strict();
export type ServerAlertHistoricRow = z.infer<typeof ServerAlertHistoricRow>;

export const ServerAlertHistoricData = z
  .object({
    server_id: z.number().int().positive(),
    time_grouping: z.number().int().positive(),
    rows: z.array(ServerAlertHistoricRow),
  })
  .strict();
export type ServerAlertHistoricData = z.infer<typeof ServerAlertHistoricData>;

// ---------------------------------------------------------------------------------------------
// Live events: GET /api/events (Server-Sent Events)

/**
 * SSE event names of `GET /api/events`: `alert` carries an {@link AlertEvent} (schemas/wire) of the
 * session's customer as JSON; `ping` is a heartbeat with `{ts}` (unix ms) every
 * {@link SSE_HEARTBEAT_MS}, so proxies keep the stream open and clients notice a dead one.
 */
export const SSE_EVENT_NAMES = ['alert', 'ping'] as const;
export type SseEventName = (typeof SSE_EVENT_NAMES)[number];
export const SSE_HEARTBEAT_MS = 15_000;

// ---------------------------------------------------------------------------------------------
// E-mail integration: POST /integrations/integration/email/{register,get_user_info,enable,disable,remove}

export const INTEGRATION_STATUSES = ['enabled', 'disabled'] as const;
export const IntegrationStatus = z.enum(INTEGRATION_STATUSES);
export type IntegrationStatus = z.infer<typeof IntegrationStatus>;

/** `register` {address}: sets (or replaces) the signed-in user's alert e-mail address and enables it. */
export const EmailRegisterRequest = z.object({ address: z.email().max(254) }).strict();
export type EmailRegisterRequest = z.infer<typeof EmailRegisterRequest>;

/** Body of `get_user_info`, `enable`, `disable` and `remove`: nothing. */
export const IntegrationEmptyRequest = z.object({}).strict();

/** The user's e-mail integration. `last_error` is the last delivery failure, cleared by a success. */
export const EmailIntegration = z
  .object({
    channel: z.literal('email'),
    status: IntegrationStatus,
    address: z.string(),
    created_at: z.number().int(),
    last_sent_at: z.number().int().nullable(),
    last_error: z.string().nullable(),
  })
  .strict();
export type EmailIntegration = z.infer<typeof EmailIntegration>;

/** Data of `get_user_info`: the integration, or null when the user has none. Others answer the integration, `remove` `{removed: true}`. */
export const EmailIntegrationData = EmailIntegration.nullable();
export type EmailIntegrationData = z.infer<typeof EmailIntegrationData>;

// ---------------------------------------------------------------------------------------------
// Bus: collector <-> api (commands `alert_rules` and `alert_transitions` to worker `api`)

/**
 * A rule as the collectors evaluate it. `host` null: every host of the tenant except
 * `except_hosts` (those with their own rule on the same metric, service and labels). Levels follow
 * collector/alerts/rules.ts (`warning` yellow, `critical` red); dynamic rules carry `sensitivity`,
 * `direction` and `min_deviation` instead.
 */
export const WireAlertRule = z
  .object({
    id: z.number().int().positive(),
    tenant: z.string(),
    host: z.string().nullable(),
    except_hosts: z.array(z.string()),
    service: z.string().nullable(),
    metric: z.string(),
    labels: Labels.nullable(),
    mode: ThresholdMode,
    operator: CompareOperator,
    warning: z.number().nullable(),
    critical: z.number().nullable(),
    recovery: z.number().nullable(),
    for_ms: z.number().int().nonnegative(),
    sensitivity: z.number().nullable(),
    direction: DynamicThresholdDirection.nullable(),
    min_deviation: z.number().nonnegative(),
  })
  .strict();
export type WireAlertRule = z.infer<typeof WireAlertRule>;

/** Levels a series can be at for a rule. */
export const RuleLevelLetter = z.enum(['G', 'Y', 'R']);
export type RuleLevelLetter = z.infer<typeof RuleLevelLetter>;

/**
 * The state of one (rule, series) a collector keeps: its level and a level pending for the rule's
 * "for" duration since `pending_since` (unix ms). The api keeps them so a restarted collector picks
 * up where it stopped, without raising again what is already open.
 */
export const WireRuleState = z
  .object({
    rule_id: z.number().int().positive(),
    tenant: z.string(),
    host: z.string(),
    service: z.string(),
    labels: z.string(),
    level: RuleLevelLetter,
    pending: RuleLevelLetter,
    pending_since: z.number().int().nonnegative(),
  })
  .strict();
export type WireRuleState = z.infer<typeof WireRuleState>;

/** Params of `alert_rules`: a collector asks for the rules (and, at start, the states to restore). */
export const AlertRulesParams = z
  .object({
    collector_id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
    /** The version the collector holds; the answer omits `rules` when it is still current. */
    version: z.string().max(64).optional(),
    /** Ask for the saved states too (at start). */
    with_states: z.boolean().optional(),
  })
  .strict();
export type AlertRulesParams = z.infer<typeof AlertRulesParams>;

/** Data of the reply to `alert_rules`. */
export const AlertRulesData = z
  .object({
    version: z.string(),
    /** Absent when the collector's version is current. */
    rules: z.array(WireAlertRule).optional(),
    states: z.array(WireRuleState).optional(),
    /** How often to ask again when no change is announced. */
    refresh_ms: z.number().int().positive(),
  })
  .strict();
export type AlertRulesData = z.infer<typeof AlertRulesData>;

/** A (rule, series) changed level: what the api turns into an alert change. */
export const WireRuleTransition = z
  .object({
    rule_id: z.number().int().positive(),
    tenant: z.string(),
    host: z.string(),
    service: z.string(),
    metric: z.string(),
    labels: z.string(),
    from: RuleLevelLetter,
    to: RuleLevelLetter,
    value: z.number(),
    /** Unix ms of the sample. */
    ts: z.number().int().positive(),
    /** Why a dynamic rule changed level; absent for a defined one. */
    dynamic: DynamicReason.optional(),
  })
  .strict();
export type WireRuleTransition = z.infer<typeof WireRuleTransition>;

/** Most transitions or states in one `alert_transitions` message. */
export const MAX_TRANSITIONS_PER_MESSAGE = 5_000;

/**
 * Params of `alert_transitions`: transitions in the order they happened, and the pending states
 * (checkpoint) of the series whose "for" duration is running, for a restart.
 */
export const AlertTransitionsParams = z
  .object({
    collector_id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
    transitions: z.array(WireRuleTransition).max(MAX_TRANSITIONS_PER_MESSAGE),
    states: z.array(WireRuleState).max(MAX_TRANSITIONS_PER_MESSAGE).optional(),
  })
  .strict();
export type AlertTransitionsParams = z.infer<typeof AlertTransitionsParams>;

/** Data of the reply to `alert_transitions`. */
export const AlertTransitionsData = z
  .object({ applied: z.number().int().nonnegative(), version: z.string() })
  .strict();
export type AlertTransitionsData = z.infer<typeof AlertTransitionsData>;

/** Bus subject suffix the api publishes on when a tenant's rules changed: `<prefix>.alerts.rules`. */
export const alertRulesChangedSubject = (prefix: string) => `${prefix}.alerts.rules`;

// ---------------------------------------------------------------------------------------------
// Alert types, single alerts and occurrences (spec section 7: `/alert/*`, `alerts/get`, `get_name`)

/** `POST /alert/list_types`: no body fields; the texts come in the session user's language. */
export const AlertListTypesRequest = z.object({}).strict();
export type AlertListTypesRequest = z.infer<typeof AlertListTypesRequest>;

/** One alert type of the catalogue (1-49) with its title and message in the user's language. */
export const AlertTypeEntry = z
  .object({
    id: z.number().int().positive(),
    code: z.string(),
    title: z.string(),
    /** Message template with `{placeholders}`. */
    message: z.string(),
    /** Default severity: Y (warning) or R (critical). */
    severity: z.enum(['Y', 'R']),
    category: AlertTypeCategory,
    /** Catalogue metrics a threshold of this type usually watches. */
    metrics: z.array(z.string()),
  })
  .strict();
export type AlertTypeEntry = z.infer<typeof AlertTypeEntry>;

export const AlertListTypesData = z.array(AlertTypeEntry);
export type AlertListTypesData = z.infer<typeof AlertListTypesData>;

/** `POST /services_monitored/alerts/get_name`: the title of one alert type. */
export const AlertGetNameRequest = z.object({ type_id: AlertTypeId }).strict();
export type AlertGetNameRequest = z.infer<typeof AlertGetNameRequest>;

export const AlertGetNameData = z
  .object({ type_id: z.number().int().positive(), code: z.string(), name: z.string() })
  .strict();
export type AlertGetNameData = z.infer<typeof AlertGetNameData>;

/** `POST /services_monitored/alerts/get`: one open alert by its id (the `id` of the list's items). */
export const AlertGetRequest = z.object({ id: RowId }).strict();
export type AlertGetRequest = z.infer<typeof AlertGetRequest>;

/** The open alert with the name of its server; `alerts` is empty (no grouping for a single alert). */
export const AlertGetData = z
  .object({ server_id: z.number().int().positive(), server_name: z.string(), alert: AlertItem })
  .strict();
export type AlertGetData = z.infer<typeof AlertGetData>;

/** `POST /alert/get_info`: one occurrence by its historic id. */
export const AlertInfoRequest = z.object({ historic_id: RowId }).strict();
export type AlertInfoRequest = z.infer<typeof AlertInfoRequest>;

/**
 * One occurrence with the threshold that raised it (null when that threshold was removed since;
 * a dynamic one carries its sensitivity and direction), whether it is still open and, when its
 * opening was not notified, why (maintenance, acknowledged, suppressed, eased).
 */
export const AlertInfoData = z
  .object({
    occurrence: AlertHistoryRow,
    threshold: Threshold.nullable(),
    open: z.boolean(),
    quiet: z.string().nullable(),
    /** Unix seconds of its first acknowledgement (null: never acknowledged). */
    acknowledged_at: z.number().int().nullable(),
  })
  .strict();
export type AlertInfoData = z.infer<typeof AlertInfoData>;

/** `POST /alert/get_alert_history`: occurrences overlapping [start, end], newest first. */
export const AlertGetAlertHistoryRequest = z
  .object({ ...UnixRange, server_id: RowId.optional(), type_id: AlertTypeId.optional() })
  .strict();
export type AlertGetAlertHistoryRequest = z.infer<typeof AlertGetAlertHistoryRequest>;

// ---------------------------------------------------------------------------------------------
// MTTA / MTTR (spec section 7: `GET /services_monitored/mttx/historic`)

/** Widest range `mttx/historic` answers: one year of days. */
export const MAX_MTTX_RANGE_S = 366 * 86_400;

/** Query of `GET /services_monitored/mttx/historic`: unix seconds, optionally one server. */
export const MttxHistoricParams = z
  .object({
    start: z.coerce.number().int().nonnegative(),
    end: z.coerce.number().int().nonnegative(),
    server_id: RowId.optional(),
  })
  .strict()
  .refine((p) => Math.abs(p.end - p.start) <= MAX_MTTX_RANGE_S, {
    message: 'the range may span one year at most',
    path: ['end'],
  });
export type MttxHistoricParams = z.infer<typeof MttxHistoricParams>;

/**
 * Figures over a set of occurrences: how many opened, how many were acknowledged and resolved,
 * the mean seconds from opening to the first acknowledgement (MTTA) and to resolution (MTTR);
 * null means nothing to average.
 */
export const MttxFigures = z
  .object({
    opened: z.number().int().nonnegative(),
    acknowledged: z.number().int().nonnegative(),
    resolved: z.number().int().nonnegative(),
    mtta_s: z.number().nonnegative().nullable(),
    mttr_s: z.number().nonnegative().nullable(),
  })
  .strict();
export type MttxFigures = z.infer<typeof MttxFigures>;

/** Figures of the occurrences opened on one UTC day (`day`: unix seconds of its midnight). */
export const MttxDay = MttxFigures.extend({ day: z.number().int() }).strict();
export type MttxDay = z.infer<typeof MttxDay>;

export const MttxHistoricData = z
  .object({
    start: z.number().int(),
    end: z.number().int(),
    server_id: z.number().int().positive().nullable(),
    /** Days with at least one occurrence opened, oldest first. */
    days: z.array(MttxDay),
    overall: MttxFigures,
  })
  .strict();
export type MttxHistoricData = z.infer<typeof MttxHistoricData>;

// ---------------------------------------------------------------------------------------------
// Mutes: alert types turned off, servers and services marked unavailable (spec section 7)

/**
 * `POST /services_monitored/alerts/change_alert_status`: turns alert type `id` off or back on for
 * one server, or (no `server_id`) for all of the customer's servers. A type turned off raises
 * nothing new; alerts of it already open are kept and their changes recorded without being told.
 */
export const ChangeAlertStatusRequest = z
  .object({ id: AlertTypeId, enabled: z.boolean(), server_id: RowId.optional() })
  .strict();
export type ChangeAlertStatusRequest = z.infer<typeof ChangeAlertStatusRequest>;

export const ChangeAlertStatusData = z
  .object({
    type_id: z.number().int().positive(),
    server_id: z.number().int().positive().nullable(),
    enabled: z.boolean(),
  })
  .strict();
export type ChangeAlertStatusData = z.infer<typeof ChangeAlertStatusData>;

/** `POST /services_monitored/alerts/list_status` {} -> data: the alert types turned off, by scope. */
export const AlertTypeMute = z
  .object({
    type_id: z.number().int().positive(),
    /** Null: turned off for all of the customer's servers. */
    server_id: z.number().int().positive().nullable(),
    /** Unix seconds it was turned off. */
    since: z.number().int(),
  })
  .strict();
export type AlertTypeMute = z.infer<typeof AlertTypeMute>;
export const ListAlertStatusData = z.array(AlertTypeMute);
export type ListAlertStatusData = z.infer<typeof ListAlertStatusData>;

/**
 * `POST /services_monitored/alerts/set_unavailable` and `remove_unavailable`: marks a server, or
 * one service of it, as intentionally unavailable (nothing new is raised for it while marked), or
 * takes the mark off. Setting or removing twice is the same as once.
 */
export const UnavailableRequest = z.object({ server_id: RowId, service: ServiceCode.optional() }).strict();
export type UnavailableRequest = z.infer<typeof UnavailableRequest>;

export const UnavailableMark = z
  .object({
    server_id: z.number().int().positive(),
    service: z.string().nullable(),
    unavailable: z.boolean(),
    /** Unix seconds the mark was set; null once removed. */
    since: z.number().int().nullable(),
  })
  .strict();
export type UnavailableMark = z.infer<typeof UnavailableMark>;

/** `POST /mttx/get_historic_unavailable`: unavailability over [start, end], optionally one server. */
export const HistoricUnavailableRequest = z.object({ ...UnixRange, server_id: RowId.optional() }).strict();
export type HistoricUnavailableRequest = z.infer<typeof HistoricUnavailableRequest>;

/**
 * Where an unavailability period comes from: an "server unreachable" alert (type 1) of the server
 * or of one service, or the agent's heartbeats having stopped (only the current period: past
 * heartbeat gaps are not kept).
 */
export const UNAVAILABILITY_SOURCES = ['unreachable_alert', 'heartbeat'] as const;
export const UnavailabilitySource = z.enum(UNAVAILABILITY_SOURCES);
export type UnavailabilitySource = z.infer<typeof UnavailabilitySource>;

export const UnavailabilityPeriod = z
  .object({
    server_id: z.number().int().positive(),
    server_name: z.string(),
    service: z.string().nullable(),
    source: UnavailabilitySource,
    /** The occurrence for `unreachable_alert`. */
    historic_id: z.number().int().positive().nullable(),
    start: z.number().int(),
    /** null: still unavailable. */
    end: z.number().int().nullable(),
    /** Seconds of the period inside the asked range. */
    seconds_in_range: z.number().int().nonnegative(),
  })
  .strict();
export type UnavailabilityPeriod = z.infer<typeof UnavailabilityPeriod>;

export const HistoricUnavailableData = z
  .object({
    periods: z.array(UnavailabilityPeriod),
    /** Servers and services marked intentionally unavailable now. */
    marked: z.array(UnavailableMark),
  })
  .strict();
export type HistoricUnavailableData = z.infer<typeof HistoricUnavailableData>;

// ---------------------------------------------------------------------------------------------
// Disk thresholds per mount (spec section 7: `/specific_disk_config/*`)

/** The metric the per-mount disk thresholds watch. */
export const SPECIFIC_DISK_METRIC = 'disk.used_pct';

/** `POST /specific_disk_config/list_specific_disk_config`: a server's per-mount disk thresholds. */
export const ListSpecificDiskConfigRequest = z.object({ server_id: RowId }).strict();
export type ListSpecificDiskConfigRequest = z.infer<typeof ListSpecificDiskConfigRequest>;

/** One mount's used-percent levels (a defined threshold with the `mount` label). */
export const SpecificDiskConfig = z
  .object({
    threshold_id: z.number().int().positive(),
    server_id: z.number().int().positive(),
    mount: z.string(),
    yellow: z.number().nullable(),
    red: z.number().nullable(),
    enabled: z.boolean(),
  })
  .strict();
export type SpecificDiskConfig = z.infer<typeof SpecificDiskConfig>;

export const ListSpecificDiskConfigData = z.array(SpecificDiskConfig);
export type ListSpecificDiskConfigData = z.infer<typeof ListSpecificDiskConfigData>;

/**
 * `POST /specific_disk_config/update_especific_disk_config`: sets one mount's used-percent levels
 * (0-100, red not below yellow); saving the same mount again replaces its levels.
 */
export const UpdateSpecificDiskConfigRequest = z
  .object({
    server_id: RowId,
    mount: z.string().trim().min(1).max(256),
    yellow: z.number().min(0).max(100).nullable(),
    red: z.number().min(0).max(100).nullable(),
    enabled: z.boolean(),
  })
  .strict()
  .refine((r) => r.yellow !== null || r.red !== null, {
    message: 'give a yellow level, a red level or both',
    path: ['red'],
  })
  .refine((r) => r.yellow === null || r.red === null || r.red >= r.yellow, {
    message: 'the red level must not be below the yellow level',
    path: ['red'],
  });
export type UpdateSpecificDiskConfigRequest = z.infer<typeof UpdateSpecificDiskConfigRequest>;

// ---------------------------------------------------------------------------------------------
// Dynamic bands

/** Where a dynamic band comes from, most specific first (collector/alerts/baseline.ts). */
export const DYNAMIC_BAND_SEASONS = ['hour_of_week', 'hour_of_day', 'global'] as const;
export const DynamicBandSeason = z.enum(DYNAMIC_BAND_SEASONS);
export type DynamicBandSeason = z.infer<typeof DynamicBandSeason>;

/** Longest range a band is drawn over: 31 days (one point per hour). */
export const MAX_DYNAMIC_BAND_RANGE_S = 31 * 86_400;

/**
 * `POST /services_monitored/alerts/get_dynamic_band`: the band of a dynamic threshold on one of
 * its servers over a range (unix seconds), as the collectors judge samples: learnt from the
 * series' last 28 days of 5-minute averages.
 */
export const GetDynamicBandRequest = z
  .object({
    threshold_id: RowId,
    server_id: RowId,
    start: z.number().int().nonnegative(),
    end: z.number().int().positive(),
  })
  .strict()
  .refine((r) => r.end > r.start, { message: 'the end must be after the start', path: ['end'] })
  .refine((r) => r.end - r.start <= MAX_DYNAMIC_BAND_RANGE_S, {
    message: 'the range may span at most 31 days; pick a shorter period',
    path: ['start'],
  });
export type GetDynamicBandRequest = z.infer<typeof GetDynamicBandRequest>;

/**
 * The band over the range, one point per hour (the band changes only at the hour): `x` unix
 * seconds, `lower`/`median`/`upper` in the metric's unit and the season each point's band comes
 * from. Not `armed` while the history spans under 24 h: then the arrays are empty.
 */
export const GetDynamicBandData = z
  .object({
    threshold_id: RowId,
    server_id: RowId,
    metric: z.string(),
    algorithm: z.string(),
    armed: z.boolean(),
    sensitivity: z.number(),
    direction: DynamicThresholdDirection,
    /** Unix seconds of the first and last 5-minute average learnt from (null without history). */
    learnt_from: z.number().nullable(),
    learnt_to: z.number().nullable(),
    points: z.number().int().nonnegative(),
    x: z.array(z.number()),
    lower: z.array(z.number()),
    median: z.array(z.number()),
    upper: z.array(z.number()),
    season: z.array(DynamicBandSeason),
    season_key: z.array(z.string()),
  })
  .strict();
export type GetDynamicBandData = z.infer<typeof GetDynamicBandData>;

/**
 * `POST /services_monitored/alerts/change_alert_dynamic_tresholds`: changes a dynamic threshold's
 * sensitivity, direction, "for" duration or whether it is on; what is left out stays.
 */
export const ChangeAlertDynamicThresholdsRequest = z
  .object({
    id: RowId,
    sensitivity: z
      .number({ message: 'the sensitivity must be a number' })
      .min(MIN_DYNAMIC_SENSITIVITY, `the sensitivity must be at least ${MIN_DYNAMIC_SENSITIVITY}`)
      .max(MAX_DYNAMIC_SENSITIVITY, `the sensitivity must be at most ${MAX_DYNAMIC_SENSITIVITY}`)
      .optional(),
    direction: DynamicThresholdDirection.optional(),
    for_s: z
      .number({ message: 'the duration must be a number of seconds' })
      .int('the duration must be a whole number of seconds')
      .min(0, 'the duration must not be negative')
      .max(MAX_THRESHOLD_FOR_S, 'the duration may be at most one day (86400 s)')
      .optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .refine(
    (r) =>
      r.sensitivity !== undefined ||
      r.direction !== undefined ||
      r.for_s !== undefined ||
      r.enabled !== undefined,
    { message: 'give at least one of sensitivity, direction, for_s or enabled to change' },
  );
export type ChangeAlertDynamicThresholdsRequest = z.infer<typeof ChangeAlertDynamicThresholdsRequest>;

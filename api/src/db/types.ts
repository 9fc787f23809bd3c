import type { UserStatus } from '@flightdeck/schemas';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Tables of the metadata DB. Times are unix seconds (bigint columns that both engines return as
 * numbers); flags are integers 0/1; JSON is text. Every table whose rows belong to a customer has
 * `customer_id`, and every data-access function filters by it.
 */
export interface Database {
  plans: PlansTable;
  customers: CustomersTable;
  users: UsersTable;
  user_preferences: UserPreferencesTable;
  sessions: SessionsTable;
  servers: ServersTable;
  services: ServicesTable;
  auth_codes: AuthCodesTable;
  agent_keys: AgentKeysTable;
  monitored_files: MonitoredFilesTable;
  monitored_file_changes: MonitoredFileChangesTable;
  file_path_tests: FilePathTestsTable;
  agent_installs: AgentInstallsTable;
  alert_thresholds: AlertThresholdsTable;
  alerts: AlertsTable;
  alert_history: AlertHistoryTable;
  alert_rule_states: AlertRuleStatesTable;
  notification_integrations: NotificationIntegrationsTable;
  notification_outbox: NotificationOutboxTable;
  maintenance_windows: MaintenanceWindowsTable;
  maintenance_window_servers: MaintenanceWindowServersTable;
  escalation_chains: EscalationChainsTable;
  alert_escalations: AlertEscalationsTable;
  alert_mutes: AlertMutesTable;
}

/** JSON kept as text: written as a string, read as a string. */
type JsonText = string;
/** Unix seconds. */
type UnixSeconds = number;
/** Defaulted by the database when not given. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface PlansTable {
  id: Generated<number>;
  name: string;
  /** 1 for the freemium plan. */
  is_freemium: Defaulted<number>;
  /** Days a subscription on this plan lasts (freemium time left); null = no end. */
  lifetime_days: number | null;
  /** Limits: null = unlimited. */
  user_limit: number | null;
  min_servers: Defaulted<number>;
  max_servers: number | null;
  max_services: number | null;
  data_retention_days: number | null;
  concurrent_sessions: number | null;
  price: Defaulted<number>;
  instance_quantity: number | null;
  /** Plan resources (dotted paths such as `service.mysql`), JSON. */
  resources: Defaulted<JsonText>;
  /** `plan_config.product_permition`: map of menu item name to 1 (allowed) or 0 (hidden), JSON. */
  product_permissions: Defaulted<JsonText>;
  /** `plataform_permitions.deploy`: `{agent, agentless}`, JSON. */
  deploy_permissions: Defaulted<JsonText>;
  created_at: UnixSeconds;
  /** Stable code of a catalogue plan (`freemium`, `standard`, `enterprise`); null for a plan made by hand. */
  code: Defaulted<string | null>;
  description: Defaulted<string | null>;
  /** Days back the flashbacks may look; null = unlimited. */
  max_flashback_days: Defaulted<number | null>;
}

export const CUSTOMER_STATUSES = ['active', 'suspended', 'canceled'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

export interface CustomersTable {
  id: Generated<number>;
  name: string;
  company_code: string | null;
  email: string | null;
  address: string | null;
  complement: string | null;
  zip_code: string | null;
  country: string | null;
  city: string | null;
  plan_id: number;
  status: Defaulted<CustomerStatus>;
  subscription_id: string | null;
  trial_cycle: number | null;
  next_payment: UnixSeconds | null;
  cancel_date: UnixSeconds | null;
  cycles: number | null;
  /** When the customer registered (freemium time left counts from here). */
  register_in: UnixSeconds;
  created_at: UnixSeconds;
}

export interface UsersTable {
  id: Generated<number>;
  customer_id: number;
  /** `user_login_email`, stored lower-case, unique across customers (it is the login). */
  email: string;
  /** `user_name`. */
  name: string;
  /** argon2id PHC string; null for users who only sign in through a provider. */
  password_hash: string | null;
  timezone_code: Defaulted<string>;
  picture: string | null;
  is_admin: Defaulted<'1' | '0'>;
  role_code: Defaulted<number>;
  locale: Defaulted<string>;
  phone: string | null;
  type: string | null;
  team_level: number | null;
  permission_level: number | null;
  status: Defaulted<UserStatus>;
  last_login: UnixSeconds | null;
  created_at: UnixSeconds;
}

export interface UserPreferencesTable {
  customer_id: number;
  user_id: number;
  preference: string;
  value: string;
}

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 of the token, hex; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  customer_id: number;
  created_at: UnixSeconds;
  expires_at: UnixSeconds;
  last_seen_at: UnixSeconds;
  revoked_at: UnixSeconds | null;
  ip: string | null;
  user_agent: string | null;
}

export const ENVIRONMENTS = ['prd', 'hmg', 'stg', 'dsv'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface ServersTable {
  id: Generated<number>;
  customer_id: number;
  /** Host token of the bus subjects (`fd.metrics.<tenant>.<host>`), unique per customer. */
  host_key: string;
  hostname: string;
  name: string | null;
  type: string | null;
  version: string | null;
  vendor: string | null;
  environment: Environment | null;
  os: string | null;
  port: number | null;
  cores: number | null;
  memory_bytes: number | null;
  swap_bytes: number | null;
  architecture: string | null;
  created_at: UnixSeconds;
  last_seen_at: UnixSeconds | null;
  /** Inventory from the agent's heartbeat (migration 0004); null until the first one. */
  os_version: Defaulted<string | null>;
  kernel: Defaulted<string | null>;
  /** linux, windows, darwin or other. */
  platform: Defaulted<string | null>;
  /** IP addresses, JSON array. */
  ips: Defaulted<JsonText | null>;
  /** 1 when the agent runs in a container. */
  containerized: Defaulted<number | null>;
  agent_version: Defaulted<string | null>;
  /** Seconds between the agent's samples. */
  interval_s: Defaulted<number | null>;
}

export interface ServicesTable {
  id: Generated<number>;
  customer_id: number;
  server_id: number;
  /** linux, mysql, postgresql, ... */
  service_code: string;
  name: string | null;
  /** Connection settings, encrypted; null when the service needs none. */
  config: string | null;
  status: Defaulted<string>;
  interval_s: Defaulted<number>;
  created_at: UnixSeconds;
  /** Agentless services (migration 0007): the config's secrets, sealed with the api's key. */
  secrets: Defaulted<string | null>;
  /** `available` or `unavailable` as the polling collector last reported; null before the first poll. */
  availability: Defaulted<'available' | 'unavailable' | null>;
  /** Unix seconds of the poll that set `availability`. */
  availability_since: Defaulted<number | null>;
  /** `<code>: <message>` of the last failed poll. */
  last_error: Defaulted<string | null>;
}

export type Plan = Selectable<PlansTable>;
export type NewPlan = Insertable<PlansTable>;
export type Customer = Selectable<CustomersTable>;
export type NewCustomer = Insertable<CustomersTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type Server = Selectable<ServersTable>;
export type NewServer = Insertable<ServersTable>;
export type Service = Selectable<ServicesTable>;
export type NewService = Insertable<ServicesTable>;

export type AuthCodePurpose = 'signup' | 'recovery';

/** Sign-up and recovery codes (migration 0002): one live row per (purpose, e-mail). */
export interface AuthCodesTable {
  id: Generated<number>;
  purpose: AuthCodePurpose;
  /** Lower-case e-mail the code was sent to. */
  email: string;
  /** SHA-256 of the code, hex. */
  code_hash: string;
  /** JSON text: for sign-up the account to create; null for recovery. */
  payload: string | null;
  /** Wrong tries so far; at the maximum the code is dead. */
  attempts: number;
  expires_at: UnixSeconds;
  used_at: UnixSeconds | null;
  created_at: UnixSeconds;
}

/** Access keys agents send to the HTTP ingest (migration 0004); only a SHA-256 of the key is kept. */
export interface AgentKeysTable {
  id: Generated<number>;
  customer_id: number;
  name: string;
  /** SHA-256 of the full key, hex. */
  key_hash: string;
  /** First 8 characters of the key, for display. */
  key_prefix: string;
  created_at: UnixSeconds;
  last_used_at: UnixSeconds | null;
  revoked_at: UnixSeconds | null;
}
export type AgentKey = Selectable<AgentKeysTable>;

/** A file watched on a server (migration 0005). `status` is a MonitoredFileStatus of schemas. */
export interface MonitoredFilesTable {
  id: Generated<number>;
  customer_id: number;
  server_id: number;
  path: string;
  status: Defaulted<string>;
  /** Hex SHA-256 the file is compared with; null until the first hash. */
  baseline_sha256: string | null;
  /** Hex SHA-256 of the last successful read. */
  sha256: string | null;
  size: number | null;
  /** Unix seconds of the file's last modification, as the agent saw it. */
  mtime: number | null;
  /** Why the last check could not hash the file. */
  error: string | null;
  last_checked_at: UnixSeconds | null;
  changed_at: UnixSeconds | null;
  baseline_at: UnixSeconds | null;
  /** User who last equalized; null when the first check set the baseline. */
  baseline_by: number | null;
  created_by: number | null;
  created_at: UnixSeconds;
}
export type MonitoredFileRow = Selectable<MonitoredFilesTable>;

/** One detected change of a monitored file's content (migration 0005). */
export interface MonitoredFileChangesTable {
  id: Generated<number>;
  customer_id: number;
  file_id: number;
  detected_at: UnixSeconds;
  previous_sha256: string | null;
  sha256: string;
  size: number | null;
  mtime: number | null;
  /** When an equalize accepted this change; null while open. */
  accepted_at: UnixSeconds | null;
  accepted_by: number | null;
}
export type MonitoredFileChangeRow = Selectable<MonitoredFileChangesTable>;

/** A path test for a server's agent (migration 0005): `pending`, then `ok` or `error`. */
export interface FilePathTestsTable {
  id: Generated<number>;
  customer_id: number;
  server_id: number;
  path: string;
  status: Defaulted<'pending' | 'ok' | 'error'>;
  /** A PathTestReason of schemas when `error`. */
  reason: string | null;
  message: string | null;
  size: number | null;
  created_at: UnixSeconds;
  answered_at: UnixSeconds | null;
}
export type FilePathTestRow = Selectable<FilePathTestsTable>;

/**
 * One system an agent was installed on (migration 0006), made by `POST /agent/register`. Unique per
 * customer by `machine_id` (a re-install finds it again) and by `host_key`.
 */
export interface AgentInstallsTable {
  id: Generated<number>;
  customer_id: number;
  /** The keyed hash of the system's machine id the agent sent. */
  machine_id: string;
  /** The host token of the bus subjects this install publishes under. */
  host_key: string;
  /** Host name at the last registration. */
  hostname: string;
  /** linux, windows, darwin or other. */
  platform: string;
  registered_at: UnixSeconds;
  last_registered_at: UnixSeconds;
}
export type AgentInstall = Selectable<AgentInstallsTable>;

/** Levels an open alert can be at (spec status letters). */
export type AlertLevel = 'Y' | 'R';

/**
 * A defined or dynamic threshold (migration 0008). `server_id` null: every server of the customer.
 * `service` and `labels` are '' when the threshold does not narrow by them; `labels` is the
 * canonical `k=v,k=v` form, sorted by key. `scope_key` is unique per customer.
 */
export interface AlertThresholdsTable {
  id: Generated<number>;
  customer_id: number;
  server_id: number | null;
  service: Defaulted<string>;
  metric: string;
  labels: Defaulted<string>;
  scope_key: string;
  mode: Defaulted<'defined' | 'dynamic'>;
  /** A CompareOperator of schemas. */
  operator: string;
  yellow: number | null;
  red: number | null;
  recovery: number | null;
  for_s: Defaulted<number>;
  type_id: number;
  enabled: Defaulted<number>;
  sensitivity: number | null;
  direction: 'above' | 'below' | 'both' | null;
  created_by: number | null;
  created_at: UnixSeconds;
  /** Unix ms of the last change: part of the rules version collectors compare. */
  updated_at_ms: number;
}
export type AlertThresholdRow = Selectable<AlertThresholdsTable>;

/** One open alert (migration 0008): a (threshold, series) at yellow or red. */
export interface AlertsTable {
  id: Generated<number>;
  customer_id: number;
  server_id: number;
  threshold_id: number;
  historic_id: number;
  host_key: string;
  service: string;
  metric: string;
  labels: string;
  type_id: number;
  level: AlertLevel;
  /** Last lifecycle label (AlertLifecycleEvent of schemas). */
  event: string;
  text: string;
  value: number;
  recurring: Defaulted<number>;
  entered_at_ms: number;
  changed_at_ms: number;
  /** Unix seconds until which the alert is acknowledged. */
  ack_until: number | null;
  ack_by: string | null;
  ack_user_id: number | null;
  ack_comment: string | null;
  change_seq: Defaulted<number>;
  /** Migration 0013: why a dynamic threshold fired (schemas DynamicReason as JSON), the latest change's. */
  dynamic: Defaulted<string | null>;
}
export type AlertRow = Selectable<AlertsTable>;

/** One occurrence of an alert (migration 0008); its id is the spec's historic_id. */
export interface AlertHistoryTable {
  id: Generated<number>;
  customer_id: number;
  server_id: number;
  threshold_id: number;
  alert_id: number | null;
  host_key: string;
  service: string;
  metric: string;
  labels: string;
  type_id: number;
  /** Most severe level reached. */
  level: AlertLevel;
  last_level: AlertLevel;
  event: string;
  text: string;
  value: number;
  date_enter: UnixSeconds;
  date_exit: UnixSeconds | null;
  acknowledged_until: UnixSeconds | null;
  ack_by: string | null;
  ack_user_id: number | null;
  ack_comment: string | null;
  notified: Defaulted<number>;
  /** Why the opening was not notified: maintenance, acknowledged, suppressed, eased. */
  quiet: string | null;
  /** Migration 0009: the maintenance window that kept a change from being notified. */
  maintenance_id: Defaulted<number | null>;
  /** Migration 0012: unix seconds of the first acknowledgement. */
  acknowledged_at: Defaulted<UnixSeconds | null>;
  /** Migration 0012: historic id of the "server unreachable" alert this one depended on. */
  parent_id: Defaulted<number | null>;
  /** Migration 0013: why a dynamic threshold fired (schemas DynamicReason as JSON), the latest change's. */
  dynamic: Defaulted<string | null>;
}
export type AlertHistoryRowDb = Selectable<AlertHistoryTable>;

/** Migration 0012: an alert type turned off, or a server or service marked intentionally unavailable. */
export interface AlertMutesTable {
  id: Generated<number>;
  customer_id: number;
  /** null: every server of the customer (a `disabled` mute only). */
  server_id: number | null;
  /** '' for the whole server. */
  service: Defaulted<string>;
  /** The alert type a `disabled` mute turns off; null for `unavailable`. */
  type_id: number | null;
  kind: 'disabled' | 'unavailable';
  scope_key: string;
  created_by: number | null;
  created_at: UnixSeconds;
}
export type AlertMuteRow = Selectable<AlertMutesTable>;

/** A running "for" duration of a collector (migration 0008), kept for a restart. */
export interface AlertRuleStatesTable {
  customer_id: number;
  threshold_id: number;
  host_key: string;
  service: string;
  labels: string;
  level: 'G' | 'Y' | 'R';
  pending: 'G' | 'Y' | 'R';
  pending_since_ms: number;
  updated_at_ms: number;
}

/** A user's notification channel (migration 0008): where alerts are sent, enabled or not. */
export interface NotificationIntegrationsTable {
  id: Generated<number>;
  customer_id: number;
  user_id: number;
  /** A NotifyChannel: email, telegram, slack, gchat, whatsapp. */
  channel: string;
  target: string;
  status: Defaulted<'enabled' | 'disabled'>;
  created_at: UnixSeconds;
  updated_at: UnixSeconds;
  last_sent_at: UnixSeconds | null;
  last_error: string | null;
  /** Migration 0010: a secret part of the target (a webhook URL), sealed with the api's key. */
  secret: Defaulted<string | null>;
  /** Migration 0010: the Telegram username; `webhook` or `bot` for Slack. */
  detail: Defaulted<string | null>;
  /** Migration 0010: the target a pending key confirms (a WhatsApp number). */
  pending_target: Defaulted<string | null>;
  /** Migration 0010: SHA-256 (hex) of a one-time key waiting to be confirmed. */
  verify_hash: Defaulted<string | null>;
  verify_until: Defaulted<UnixSeconds | null>;
  verify_attempts: Defaulted<number>;
}
export type NotificationIntegrationRow = Selectable<NotificationIntegrationsTable>;

/** The notification queue's outbox in the metadata DB (migration 0008). */
export interface NotificationOutboxTable {
  /** Enqueue order. */
  id: Generated<number>;
  customer_id: number;
  notification_id: string;
  channel: string;
  recipient_key: string;
  /** The Notification as JSON. */
  payload: string;
  state: Defaulted<'pending' | 'sent' | 'failed'>;
  attempts: Defaulted<number>;
  enqueued_at_ms: number;
  next_at_ms: number;
  done_at_ms: number | null;
  last_error: string | null;
}

/** A maintenance window (migration 0009); times in unix seconds, `weekdays` "1,3,5" (UTC, 0 Sunday). */
export interface MaintenanceWindowsTable {
  id: Generated<number>;
  customer_id: number;
  all_servers: Defaulted<number>;
  /** '' covers the servers and all their services. */
  service: Defaulted<string>;
  start_at: UnixSeconds;
  end_at: UnixSeconds;
  recurrence: Defaulted<'none' | 'daily' | 'weekly'>;
  weekdays: Defaulted<string>;
  until_at: UnixSeconds | null;
  /** End of the last occurrence; null: repeats with no end. */
  last_end_at: UnixSeconds | null;
  reason: string;
  approved: Defaulted<number>;
  created_by: number | null;
  created_at: UnixSeconds;
  finished_at: UnixSeconds | null;
}
export type MaintenanceWindowRow = Selectable<MaintenanceWindowsTable>;

/** A server a maintenance window names (migration 0009). */
export interface MaintenanceWindowServersTable {
  customer_id: number;
  window_id: number;
  server_id: number;
}

/** An escalation chain of a customer (migration 0011); `severity` default, R or Y. */
export interface EscalationChainsTable {
  id: Generated<number>;
  customer_id: number;
  severity: 'default' | 'R' | 'Y';
  /** EscalationStep[] of schemas, JSON. */
  steps: JsonText;
  updated_at: UnixSeconds;
  updated_by: number | null;
}
export type EscalationChainRow = Selectable<EscalationChainsTable>;

/** How far an alert occurrence's escalation went (migration 0011): the index of the last step sent. */
export interface AlertEscalationsTable {
  historic_id: number;
  customer_id: number;
  step: number;
  updated_at_ms: number;
}

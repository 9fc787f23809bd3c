import type { PollerService } from '@flightdeck/schemas';

/**
 * The agentless form's model: which fields a service's config has (read from its
 * `GET /{service}/default_config` answer plus the optional fields the schema allows), the form's
 * values as text, the config they make, and the fingerprint that ties a passed connection test to
 * exactly those values.
 */

/** Ports the spec flags: a service left on its engine's default port is easier to find. */
export const DEFAULT_PORTS: ReadonlySet<number> = new Set([1433, 3306, 1521, 22, 5432]);

export type FieldKind = 'text' | 'password' | 'number' | 'boolean' | 'select' | 'textarea';

/** One input of the form. `name` is the config key; `tls.*` fields nest under `tls`. */
export interface FieldSpec {
  name: string;
  kind: FieldKind;
  /** Shown under "Advanced settings". */
  advanced: boolean;
  /** Left out of the config when empty. */
  optional: boolean;
  options?: readonly string[];
}

export type FormValues = Record<string, string | boolean>;

/** Optional fields the schema allows but a default config does not hold. */
const OPTIONAL_FIELDS: Record<PollerService, readonly FieldSpec[]> = {
  postgresql: [],
  mysql: [{ name: 'database', kind: 'text', advanced: false, optional: true }],
  nginx: [
    { name: 'user', kind: 'text', advanced: true, optional: true },
    { name: 'password', kind: 'password', advanced: true, optional: true },
  ],
  apache: [
    { name: 'user', kind: 'text', advanced: true, optional: true },
    { name: 'password', kind: 'password', advanced: true, optional: true },
  ],
  url: [
    { name: 'keyword', kind: 'text', advanced: false, optional: true },
    { name: 'expected_status', kind: 'text', advanced: false, optional: true },
    { name: 'tls.ca', kind: 'textarea', advanced: true, optional: true },
  ],
  oracle: [{ name: 'sid', kind: 'text', advanced: false, optional: true }],
  mongodb: [
    { name: 'user', kind: 'text', advanced: false, optional: true },
    { name: 'replica_set', kind: 'text', advanced: false, optional: true },
    { name: 'tls.ca', kind: 'textarea', advanced: true, optional: true },
  ],
  elasticsearch: [
    { name: 'url', kind: 'text', advanced: false, optional: true },
    { name: 'user', kind: 'text', advanced: false, optional: true },
    { name: 'api_key', kind: 'password', advanced: false, optional: true },
    { name: 'tls.ca', kind: 'textarea', advanced: true, optional: true },
  ],
  mssql: [],
  neo4j: [{ name: 'tls.ca', kind: 'textarea', advanced: true, optional: true }],
  cassandra: [
    { name: 'user', kind: 'text', advanced: false, optional: true },
    { name: 'keyspace', kind: 'text', advanced: false, optional: true },
    { name: 'tls.ca', kind: 'textarea', advanced: true, optional: true },
  ],
};

/** The order fields show in; anything else follows in the default config's order. */
const ORDER = [
  'url',
  'method',
  'host',
  'port',
  'path',
  'user',
  'password',
  'api_key',
  'database',
  'service_name',
  'sid',
  'auth_source',
  'replica_set',
  'direct_connection',
  'local_datacenter',
  'keyspace',
  'keyword',
  'expected_status',
  'follow_redirects',
  'tls.enabled',
  'tls.reject_unauthorized',
  'tls.ca',
  'interval_s',
  'connect_timeout_ms',
  'query_timeout_ms',
  'timeout_ms',
];
const MAIN_FIELDS = new Set([
  'url',
  'method',
  'host',
  'port',
  'path',
  'user',
  'password',
  'database',
  'service_name',
  'sid',
  'local_datacenter',
  'keyspace',
  'keyword',
  'expected_status',
  'tls.enabled',
  'interval_s',
]);
const SELECT_OPTIONS: Record<string, readonly string[]> = { method: ['GET', 'HEAD'] };

/** Flattens `{tls: {enabled}}` into `tls.enabled`. */
function flatten(config: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(config).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? flatten(value as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

function kindOf(name: string, value: unknown): FieldKind {
  if (name === 'password' || name.endsWith('.password')) return 'password';
  if (SELECT_OPTIONS[name]) return 'select';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  return 'text';
}

/** The fields of a service's form, from its default config. */
export function fieldsOf(service: PollerService, defaults: Record<string, unknown>): FieldSpec[] {
  const fields: FieldSpec[] = flatten(defaults).map(([name, value]) => {
    const kind = kindOf(name, value);
    const options = SELECT_OPTIONS[name];
    // The database password may be empty (trust authentication): it is sent even when blank.
    return {
      name,
      kind,
      advanced: !MAIN_FIELDS.has(name),
      optional: false,
      ...(options ? { options } : {}),
    };
  });
  for (const extra of OPTIONAL_FIELDS[service]) {
    if (!fields.some((f) => f.name === extra.name)) fields.push(extra);
  }
  const rank = (name: string) => {
    const i = ORDER.indexOf(name);
    return i === -1 ? ORDER.length : i;
  };
  return fields.sort((a, b) => rank(a.name) - rank(b.name));
}

/** The form's first values: the defaults as text, the password always empty (never prefilled). */
export function initialValues(fields: readonly FieldSpec[], defaults: Record<string, unknown>): FormValues {
  const flat = new Map(flatten(defaults));
  const values: FormValues = {};
  for (const field of fields) {
    const value = flat.get(field.name);
    if (field.kind === 'boolean') values[field.name] = value === true;
    else if (field.kind === 'password') values[field.name] = '';
    else if (Array.isArray(value)) values[field.name] = value.join(', ');
    else values[field.name] = value === undefined || value === null ? '' : String(value);
  }
  return values;
}

/**
 * The config the values make, as the api parses it: numbers as numbers, optional fields left out
 * when empty, `expected_status` as a list, `tls.*` nested. A status page's password goes only
 * with its user (the schema wants both or neither).
 */
export function configFromValues(fields: readonly FieldSpec[], values: FormValues): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const put = (name: string, value: unknown) => {
    const [head, tail] = name.split('.', 2) as [string, string | undefined];
    if (tail === undefined) {
      config[head] = value;
      return;
    }
    const nested = (config[head] ?? {}) as Record<string, unknown>;
    nested[tail] = value;
    config[head] = nested;
  };
  const userGiven = typeof values.user === 'string' && values.user.trim() !== '';
  for (const field of fields) {
    const raw = values[field.name];
    if (field.kind === 'boolean') {
      put(field.name, raw === true);
      continue;
    }
    const text = typeof raw === 'string' ? raw : '';
    const trimmed = field.kind === 'password' ? text : text.trim();
    if (field.optional && trimmed === '') continue;
    if (field.optional && field.name === 'password' && !userGiven) continue;
    if (field.name === 'expected_status') {
      put(
        field.name,
        trimmed
          .split(/[\s,]+/)
          .filter(Boolean)
          .map(Number),
      );
    } else if (field.kind === 'number') {
      // An empty number is left to the api's default.
      if (trimmed !== '') put(field.name, Number(trimmed));
    } else {
      put(field.name, trimmed);
    }
  }
  return config;
}

/** JSON with keys sorted at every level, so two equal configs always read the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What a passed test is tied to: the service and the exact config (the name is not part of it). */
export function fingerprint(service: PollerService, config: Record<string, unknown>): string {
  return `${service}:${canonical(config)}`;
}

/** The port the values name: the port field, or the URL's; null when none can be read. */
export function portOf(values: FormValues): number | null {
  if (typeof values.port === 'string' && /^\d+$/.test(values.port.trim())) return Number(values.port);
  if (typeof values.url === 'string' && values.url.trim() !== '') {
    try {
      const url = new URL(values.url.trim());
      if (url.port) return Number(url.port);
    } catch {
      return null;
    }
  }
  return null;
}

/** Whether the values leave the service on a default port (the spec's recommendation flag). */
export function onDefaultPort(values: FormValues): boolean {
  const port = portOf(values);
  return port !== null && DEFAULT_PORTS.has(port);
}

/** Where the test-then-register flow stands. */
export type TestState =
  | { phase: 'idle' }
  | { phase: 'testing'; fingerprint: string }
  | { phase: 'passed'; fingerprint: string; version?: string; details?: Record<string, unknown> }
  | { phase: 'failed'; fingerprint: string; code: string; message: string };

/** Register is allowed only after a passed test of exactly the current config. */
export function canRegister(state: TestState, current: string): boolean {
  return state.phase === 'passed' && state.fingerprint === current;
}

/** A test result shown for other values than the current ones is stale: the form says so. */
export function isStale(state: TestState, current: string): boolean {
  return state.phase !== 'idle' && state.phase !== 'testing' && state.fingerprint !== current;
}

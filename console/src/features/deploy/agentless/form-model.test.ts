import { POLLER_CONFIG_SCHEMAS, POLLER_DEFAULT_CONFIGS } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  canRegister,
  configFromValues,
  fieldsOf,
  fingerprint,
  initialValues,
  isStale,
  onDefaultPort,
  type TestState,
} from './form-model';

const pgDefaults = { ...POLLER_DEFAULT_CONFIGS.postgresql, password: '********' };

describe('agentless form model', () => {
  it('builds the PostgreSQL form from its default config, with the password never prefilled', () => {
    const fields = fieldsOf('postgresql', pgDefaults);
    const names = fields.map((f) => f.name);
    expect(names.slice(0, 5)).toEqual(['host', 'port', 'user', 'password', 'database']);
    expect(names).toContain('tls.enabled');
    expect(fields.find((f) => f.name === 'connect_timeout_ms')?.advanced).toBe(true);
    const values = initialValues(fields, pgDefaults);
    expect(values.password).toBe('');
    expect(values.port).toBe('5432');
    expect(values['tls.enabled']).toBe(false);
  });

  it('turns the values back into a config the service schema accepts', () => {
    for (const service of ['postgresql', 'mysql', 'nginx', 'apache', 'url'] as const) {
      const defaults = POLLER_DEFAULT_CONFIGS[service] as Record<string, unknown>;
      const fields = fieldsOf(service, defaults);
      const config = configFromValues(fields, initialValues(fields, defaults));
      expect(POLLER_CONFIG_SCHEMAS[service].safeParse(config).success, service).toBe(true);
    }
  });

  it('sends numbers as numbers, nests TLS, and leaves empty optional fields out', () => {
    const fields = fieldsOf('url', POLLER_DEFAULT_CONFIGS.url);
    const values = initialValues(fields, POLLER_DEFAULT_CONFIGS.url);
    const config = configFromValues(fields, {
      ...values,
      url: ' http://127.0.0.1:8080/health ',
      expected_status: '200, 301',
      timeout_ms: '2500',
      'tls.reject_unauthorized': false,
    });
    expect(config.url).toBe('http://127.0.0.1:8080/health');
    expect(config.expected_status).toEqual([200, 301]);
    expect(config.timeout_ms).toBe(2500);
    expect(config.tls).toEqual({ reject_unauthorized: false });
    expect('keyword' in config).toBe(false);
  });

  it('sends a status page password only with its user', () => {
    const fields = fieldsOf('nginx', POLLER_DEFAULT_CONFIGS.nginx);
    const values = initialValues(fields, POLLER_DEFAULT_CONFIGS.nginx);
    expect('password' in configFromValues(fields, { ...values, password: 'x' })).toBe(false);
    const both = configFromValues(fields, { ...values, user: 'stats', password: 'x' });
    expect([both.user, both.password]).toEqual(['stats', 'x']);
  });

  it('gives the same fingerprint to equal configs whatever the key order, and another to any change', () => {
    const a = fingerprint('postgresql', {
      host: 'db',
      port: 5432,
      tls: { enabled: false, reject_unauthorized: true },
    });
    const b = fingerprint('postgresql', {
      tls: { reject_unauthorized: true, enabled: false },
      port: 5432,
      host: 'db',
    });
    expect(a).toBe(b);
    expect(
      fingerprint('postgresql', {
        host: 'db',
        port: 5433,
        tls: { enabled: false, reject_unauthorized: true },
      }),
    ).not.toBe(a);
    expect(
      fingerprint('mysql', { host: 'db', port: 5432, tls: { enabled: false, reject_unauthorized: true } }),
    ).not.toBe(a);
    expect(
      fingerprint('postgresql', {
        host: 'db',
        port: 5432,
        tls: { enabled: true, reject_unauthorized: true },
      }),
    ).not.toBe(a);
  });

  it('enables Register only after a passed test of exactly the current values', () => {
    const fields = fieldsOf('postgresql', pgDefaults);
    const values = { ...initialValues(fields, pgDefaults), host: '127.0.0.1' };
    const tested = fingerprint('postgresql', configFromValues(fields, values));
    const passed: TestState = { phase: 'passed', fingerprint: tested, version: '16' };
    expect(canRegister({ phase: 'idle' }, tested)).toBe(false);
    expect(canRegister({ phase: 'testing', fingerprint: tested }, tested)).toBe(false);
    expect(
      canRegister({ phase: 'failed', fingerprint: tested, code: 'connection_failed', message: '' }, tested),
    ).toBe(false);
    expect(canRegister(passed, tested)).toBe(true);
    expect(isStale(passed, tested)).toBe(false);

    // Any edit (here the password) makes the passed test stale until the values come back.
    const edited = fingerprint('postgresql', configFromValues(fields, { ...values, password: 'p' }));
    expect(canRegister(passed, edited)).toBe(false);
    expect(isStale(passed, edited)).toBe(true);
    const restored = fingerprint('postgresql', configFromValues(fields, { ...values }));
    expect(canRegister(passed, restored)).toBe(true);
  });

  it('flags the default ports the spec lists, from the port field or the URL', () => {
    expect(onDefaultPort({ port: '5432' })).toBe(true);
    expect(onDefaultPort({ port: '3306' })).toBe(true);
    expect(onDefaultPort({ port: '6432' })).toBe(false);
    expect(onDefaultPort({ url: 'http://db.example:1433/' })).toBe(true);
    expect(onDefaultPort({ url: 'https://example.com/' })).toBe(false);
    expect(onDefaultPort({ url: 'not a url' })).toBe(false);
  });
});

describe('agentless form model: Oracle', () => {
  const defaults = POLLER_DEFAULT_CONFIGS.oracle as Record<string, unknown>;

  it('shows the service name and the optional SID after the credentials', () => {
    const names = fieldsOf('oracle', defaults).map((f) => f.name);
    expect(names.slice(0, 6)).toEqual(['host', 'port', 'user', 'password', 'service_name', 'sid']);
  });

  it('connects by SID once the service name is cleared', () => {
    const fields = fieldsOf('oracle', defaults);
    const values = initialValues(fields, defaults);
    expect(values.service_name).toBe('ORCLPDB1');
    const bySid = configFromValues(fields, { ...values, user: 'monitor', service_name: '', sid: 'ORCL' });
    expect(POLLER_CONFIG_SCHEMAS.oracle.parse(bySid)).toMatchObject({ sid: 'ORCL', port: 1521 });
    const both = configFromValues(fields, { ...values, sid: 'ORCL' });
    expect(POLLER_CONFIG_SCHEMAS.oracle.safeParse(both).success).toBe(false);
  });
});

describe('agentless form model: Neo4j and Cassandra', () => {
  it('turns their default values into configs the schemas accept', () => {
    for (const service of ['neo4j', 'cassandra'] as const) {
      const defaults = POLLER_DEFAULT_CONFIGS[service] as Record<string, unknown>;
      const fields = fieldsOf(service, defaults);
      const config = configFromValues(fields, initialValues(fields, defaults));
      expect(POLLER_CONFIG_SCHEMAS[service].safeParse(config).success, service).toBe(true);
    }
  });

  it('shows the Cassandra user, data center and keyspace among the main fields, and leaves the empty ones out', () => {
    const defaults = POLLER_DEFAULT_CONFIGS.cassandra as Record<string, unknown>;
    const fields = fieldsOf('cassandra', defaults);
    expect(fields.filter((f) => !f.advanced).map((f) => f.name)).toEqual([
      'host',
      'port',
      'user',
      'password',
      'local_datacenter',
      'keyspace',
      'tls.enabled',
      'interval_s',
    ]);
    const values = initialValues(fields, defaults);
    const anonymous = configFromValues(fields, values);
    expect('user' in anonymous || 'keyspace' in anonymous).toBe(false);
    const withUser = configFromValues(fields, {
      ...values,
      user: 'monitor',
      password: 's3cret',
      keyspace: 'shop',
    });
    expect(POLLER_CONFIG_SCHEMAS.cassandra.parse(withUser)).toMatchObject({
      user: 'monitor',
      keyspace: 'shop',
      local_datacenter: 'datacenter1',
      port: 9042,
    });
    const passwordAlone = configFromValues(fields, { ...values, password: 's3cret' });
    expect(POLLER_CONFIG_SCHEMAS.cassandra.safeParse(passwordAlone).success).toBe(false);
  });
});

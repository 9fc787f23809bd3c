import { describe, expect, it } from 'vitest';
import { OraclePollerConfig } from './pollers-oracle';

const issues = (value: unknown) => {
  const parsed = OraclePollerConfig.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('Oracle poller config', () => {
  it('fills every default from host, user and service name', () => {
    expect(OraclePollerConfig.parse({ host: 'db1', user: 'monitor', service_name: 'ORCLPDB1' })).toEqual({
      host: 'db1',
      user: 'monitor',
      password: '',
      tls: { enabled: false, reject_unauthorized: true },
      connect_timeout_ms: 5000,
      query_timeout_ms: 10_000,
      interval_s: 60,
      long_query_s: 60,
      size_interval_s: 300,
      top_tables: 10,
      port: 1521,
      service_name: 'ORCLPDB1',
    });
  });

  it('wants the service name or the SID, not both, an empty field counting as not given', () => {
    const base = { host: 'db1', user: 'monitor' };
    expect(OraclePollerConfig.parse({ ...base, service_name: '', sid: 'ORCL' })).toMatchObject({
      sid: 'ORCL',
    });
    expect(OraclePollerConfig.parse({ ...base, service_name: '', sid: 'ORCL' }).service_name).toBeUndefined();
    expect(issues({ ...base, service_name: 'ORCLPDB1', sid: 'ORCL' })).toEqual([
      'service_name: give the service name or the SID, not both',
    ]);
    expect(issues(base)).toEqual(['service_name: give the service name or the SID, not both']);
    expect(issues({ ...base, service_name: ' ', sid: '' })).toHaveLength(1);
  });

  it('accepts service names with a domain and refuses what would break a connect descriptor', () => {
    const base = { user: 'monitor', service_name: 'sales.example.com' };
    expect(issues({ ...base, host: 'db1.example.com' })).toEqual([]);
    expect(issues({ ...base, host: 'db1)(PORT=1' })[0]).toMatch(/^host: /);
    expect(issues({ host: 'db1', user: 'monitor', service_name: 'PDB)(X=1' })[0]).toMatch(/^service_name: /);
    expect(issues({ host: 'db1', user: 'monitor', sid: '1ORCL' })[0]).toMatch(/^sid: /);
  });

  it('refuses a TLS setting the driver cannot honour rather than ignoring it', () => {
    const base = { host: 'db1', user: 'monitor', service_name: 'ORCLPDB1' };
    expect(issues({ ...base, tls: { enabled: true } })).toEqual([]);
    expect(issues({ ...base, tls: { enabled: true, reject_unauthorized: false } })[0]).toMatch(
      /^tls: Oracle's driver always checks/,
    );
    expect(issues({ ...base, tls: { enabled: true, ca: '-----BEGIN CERTIFICATE-----' } })).toHaveLength(1);
    // Off, the other TLS settings do not matter.
    expect(issues({ ...base, tls: { enabled: false, reject_unauthorized: false } })).toEqual([]);
  });
});

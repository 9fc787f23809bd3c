import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_FALLBACK_MESSAGES } from '../errors';
import {
  ConnectionTestResult,
  MysqlPollerConfig,
  NginxPollerConfig,
  POLLER_CONFIG_SCHEMAS,
  POLLER_DEFAULT_CONFIGS,
  POLLER_FAILURE_CODES,
  POLLER_SERVICES,
  PostgresPollerConfig,
  UrlPollerConfig,
} from './pollers';

describe('poller configs', () => {
  it('fills every default of a database target from host and user alone', () => {
    expect(PostgresPollerConfig.parse({ host: 'db1', user: 'monitor' })).toEqual({
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
      port: 5432,
      database: 'postgres',
    });
    expect(MysqlPollerConfig.parse({ host: 'db1', user: 'monitor' }).port).toBe(3306);
  });

  it('refuses a host with a scheme or a path, a port out of range and unknown fields', () => {
    expect(PostgresPollerConfig.safeParse({ host: 'postgres://db1', user: 'u' }).success).toBe(false);
    expect(PostgresPollerConfig.safeParse({ host: 'db1', user: 'u', port: 0 }).success).toBe(false);
    expect(PostgresPollerConfig.safeParse({ host: 'db1', user: 'u', sslmode: 'require' }).success).toBe(
      false,
    );
    expect(PostgresPollerConfig.safeParse({ host: 'db1', user: 'u', connect_timeout_ms: 10 }).success).toBe(
      false,
    );
  });

  it('wants both a user and a password for a protected status page, or neither', () => {
    expect(NginxPollerConfig.safeParse({ host: 'web', user: 'a', password: 'b' }).success).toBe(true);
    expect(NginxPollerConfig.safeParse({ host: 'web', user: 'a' }).success).toBe(false);
  });

  it('checks http and https URLs only, and a keyword only with GET', () => {
    expect(UrlPollerConfig.safeParse({ url: 'https://example.com/health' }).success).toBe(true);
    expect(UrlPollerConfig.safeParse({ url: 'ftp://example.com/' }).success).toBe(false);
    expect(
      UrlPollerConfig.safeParse({ url: 'https://example.com/', method: 'HEAD', keyword: 'ok' }).success,
    ).toBe(false);
  });

  it('gives each service a default config that passes its schema', () => {
    for (const service of POLLER_SERVICES) {
      expect(POLLER_CONFIG_SCHEMAS[service].parse(POLLER_DEFAULT_CONFIGS[service]), service).toEqual(
        POLLER_DEFAULT_CONFIGS[service],
      );
    }
  });
});

describe('connection test results', () => {
  it('are API error codes, each with a fallback message', () => {
    for (const code of POLLER_FAILURE_CODES) {
      expect(ERROR_CODES, code).toContain(code);
      expect(ERROR_FALLBACK_MESSAGES[code], code).toBeTruthy();
    }
    expect(ERROR_FALLBACK_MESSAGES.connection_failed).toBe('Failed to connect to the pool.');
  });

  it('parse a success and a failure, and refuse a failure without its code', () => {
    expect(
      ConnectionTestResult.parse({ ok: true, version: '15.2', details: { role: 'primary', uptime_s: 10 } })
        .ok,
    ).toBe(true);
    expect(ConnectionTestResult.parse({ ok: false, code: 'auth_failed', message: 'x' }).ok).toBe(false);
    expect(ConnectionTestResult.safeParse({ ok: false, message: 'x' }).success).toBe(false);
  });
});

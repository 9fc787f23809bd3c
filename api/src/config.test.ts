import { join } from 'node:path';
import { ConfigError } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { loadApiConfig, usesSecureCookies } from './config';

function problems(env: Record<string, string>): string {
  try {
    loadApiConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadApiConfig', () => {
  it('fills the defaults, placing both databases under DATA_DIR', () => {
    const config = loadApiConfig({ DATA_DIR: '/var/lib/fd' });
    expect(config).toMatchObject({
      PORT: 8080,
      DATA_DIR: '/var/lib/fd',
      DATABASE_URL: join('/var/lib/fd', 'flightdeck.db'),
      METRICS_STORE: join('/var/lib/fd', 'metrics.db'),
      LOG_LEVEL: 'info',
      SESSION_TTL_HOURS: 168,
    });
    expect(config.NATS_URL).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
    expect(loadApiConfig({}).DATABASE_URL).toBe(join('data', 'flightdeck.db'));
  });

  it('accepts a postgres URL, a NATS URL and an https public URL', () => {
    const config = loadApiConfig({
      DATABASE_URL: 'postgres://fd:secret@db:5432/flightdeck',
      NATS_URL: 'nats://nats:4222',
      PUBLIC_URL: 'https://monitor.example.com',
      FLIGHTDECK_ADMIN_EMAIL: 'Root@Example.com',
      FLIGHTDECK_ADMIN_PASSWORD: 'long-enough',
      PORT: '9000',
    });
    expect(config.DATABASE_URL).toBe('postgres://fd:secret@db:5432/flightdeck');
    expect(config.PORT).toBe(9000);
    expect(config.FLIGHTDECK_ADMIN_EMAIL).toBe('root@example.com');
    expect(usesSecureCookies(config)).toBe(true);
    expect(usesSecureCookies(loadApiConfig({ PUBLIC_URL: 'http://localhost:8080' }))).toBe(false);
  });

  it('names every variable that does not fit, and hides passwords', () => {
    const message = problems({
      PORT: '70000',
      DATABASE_URL: 'mysql://db/flightdeck',
      NATS_URL: 'http://nats:4222',
      PUBLIC_URL: 'monitor.example.com',
      LOG_LEVEL: 'loud',
      FLIGHTDECK_ADMIN_EMAIL: 'not-an-email',
      FLIGHTDECK_ADMIN_PASSWORD: 'short',
      SESSION_TTL_HOURS: '0',
    });
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'NATS_URL',
      'PUBLIC_URL',
      'LOG_LEVEL',
      'FLIGHTDECK_ADMIN_EMAIL',
      'FLIGHTDECK_ADMIN_PASSWORD',
      'SESSION_TTL_HOURS',
    ]) {
      expect(message).toContain(`${name}:`);
    }
    expect(message).toContain('expected a SQLite file path or a postgres:// URL');
    expect(message).not.toContain('"short"');
  });
});

describe('METRICS_STORE', () => {
  it('names the variable and the expected form when a QuestDB string is malformed', () => {
    expect(() => loadApiConfig({ METRICS_STORE: 'questdb:http::pg=db:8812' })).toThrow(
      /METRICS_STORE: questdb config needs addr=host:port/,
    );
  });
  it('accepts a SQLite path and a QuestDB string', () => {
    expect(loadApiConfig({ METRICS_STORE: '/var/lib/fd/metrics.db' }).METRICS_STORE).toBe(
      '/var/lib/fd/metrics.db',
    );
    expect(
      loadApiConfig({ METRICS_STORE: 'questdb:http::addr=questdb:9000;pg=questdb:8812' }).METRICS_STORE,
    ).toContain('questdb:');
  });
});

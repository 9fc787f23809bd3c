import { POLLER_CONFIG_SCHEMAS, POLLER_SERVICES } from '@flightdeck/schemas';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createPoller, defaultConfig, isPollerService, POLLER_FACTORIES } from './registry';

const logger = pino({ level: 'silent' });

describe('poller registry', () => {
  it('has a factory and a default config that passes its schema for every service', () => {
    expect(Object.keys(POLLER_FACTORIES).sort()).toEqual([...POLLER_SERVICES].sort());
    for (const service of POLLER_SERVICES) {
      const config = defaultConfig(service);
      expect(POLLER_CONFIG_SCHEMAS[service].parse(config), service).toEqual(config);
      expect(config.interval_s, service).toBe(60);
    }
    expect(defaultConfig('postgresql')).toMatchObject({
      port: 5432,
      database: 'postgres',
      connect_timeout_ms: 5000,
    });
    expect(defaultConfig('mysql')).toMatchObject({ port: 3306, query_timeout_ms: 10_000 });
    expect(defaultConfig('nginx')).toMatchObject({ port: 80, path: '/nginx_status' });
    expect(defaultConfig('apache')).toMatchObject({ port: 80, path: '/server-status' });
  });

  it('hands out copies of the default config', () => {
    const a = defaultConfig('postgresql');
    a.tls.enabled = true;
    expect(defaultConfig('postgresql').tls.enabled).toBe(false);
  });

  it('builds the poller of a valid config with its target', async () => {
    const result = createPoller(
      'postgresql',
      { host: 'db.example.com', user: 'monitor', password: 's3cret' },
      { logger },
    );
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.poller.service).toBe('postgresql');
      expect(result.poller.target).toBe('db.example.com:5432');
      await result.poller.close();
    }
    const url = createPoller('url', { url: 'https://example.com/health' }, { logger });
    expect(url.ok && url.poller.target).toBe('https://example.com/health');
    const v6 = createPoller('mysql', { host: '::1', user: 'root' }, { logger });
    expect(v6.ok && v6.poller.target).toBe('[::1]:3306');
  });

  it('gives bad_config naming every wrong field, and for an unknown service', () => {
    const bad = createPoller('mysql', { host: 'db/1', port: 70_000, user: '' }, { logger });
    expect(bad).toMatchObject({ ok: false, code: 'bad_config' });
    if (!bad.ok) {
      expect(bad.message).toContain('host:');
      expect(bad.message).toContain('port:');
      expect(bad.message).toContain('user:');
    }
    expect(createPoller('url', { url: 'ftp://example.com/' }, { logger })).toMatchObject({
      code: 'bad_config',
    });
    expect(
      createPoller('url', { url: 'https://example.com/', method: 'HEAD', keyword: 'x' }, { logger }),
    ).toMatchObject({
      code: 'bad_config',
    });
    expect(createPoller('nginx', { host: 'web', password: 'x' }, { logger })).toMatchObject({
      code: 'bad_config',
    });
    // Db2's driver (ibm_db) downloads IBM's client from outside the npm registry at install.
    expect(createPoller('db2', { host: 'db' }, { logger })).toMatchObject({ code: 'bad_config' });
    expect(isPollerService('db2')).toBe(false);
    expect(isPollerService('apache')).toBe(true);
    // Oracle needs its service name or SID: a config without them names the fields.
    const oracle = createPoller('oracle', { host: 'db', user: 'u' }, { logger });
    expect(oracle).toMatchObject({ code: 'bad_config' });
  });
});

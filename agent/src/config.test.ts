import { ConfigError } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { hostKeyFromHostname, loadAgentConfig } from './config';

describe('hostKeyFromHostname', () => {
  it('lower-cases and turns every character outside [a-z0-9_-] into "-"', () => {
    expect(hostKeyFromHostname('Web01.Example.COM')).toBe('web01-example-com');
    expect(hostKeyFromHostname('db_2 (old)')).toBe('db_2--old-');
    expect(hostKeyFromHostname('ñandú')).toBe('-and-');
  });

  it('always yields a valid subject token', () => {
    expect(hostKeyFromHostname('x'.repeat(300))).toHaveLength(128);
    expect(hostKeyFromHostname('')).toBe('unknown-host');
  });
});

describe('loadAgentConfig', () => {
  it('applies the defaults, the host key coming from the host name', () => {
    expect(loadAgentConfig({ AGENT_TENANT: '42' }, 'Build.Box')).toEqual({
      tenant: '42',
      hostKey: 'build-box',
      intervalSeconds: 10,
      procRoot: '/proc',
      natsUrl: undefined,
      logLevel: 'info',
    });
  });

  it('reads every variable and returns a frozen object', () => {
    const config = loadAgentConfig(
      {
        AGENT_TENANT: 'acme',
        AGENT_HOST_KEY: 'web-01',
        AGENT_INTERVAL_S: '30',
        AGENT_PROC_ROOT: '/host/proc',
        NATS_URL: 'nats://collector:4222',
        LOG_LEVEL: 'debug',
      },
      'ignored',
    );
    expect(config).toMatchObject({
      hostKey: 'web-01',
      intervalSeconds: 30,
      procRoot: '/host/proc',
      logLevel: 'debug',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('lists every bad variable by name in one error', () => {
    let error: unknown;
    try {
      loadAgentConfig({
        AGENT_HOST_KEY: 'web.01',
        AGENT_INTERVAL_S: '0',
        NATS_URL: 'http://x',
        AGENT_PROC_ROOT: 'proc',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'AGENT_TENANT',
      'AGENT_HOST_KEY',
      'AGENT_INTERVAL_S',
      'NATS_URL',
      'AGENT_PROC_ROOT',
    ]) {
      expect(problems).toContain(name);
    }
  });
});

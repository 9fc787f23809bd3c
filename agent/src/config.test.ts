import { ConfigError } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  agentPaths,
  configFilePath,
  defaultConfigFile,
  defaultSpoolDir,
  defaultStateDir,
  hostKeyFromHostname,
  loadAgentConfig,
} from './config';
import type { AgentConfigFile } from './config-file';

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
    expect(loadAgentConfig({ AGENT_TENANT: '42', NATS_URL: 'nats://bus:4222' }, 'Build.Box')).toEqual({
      tenant: '42',
      hostKey: 'build-box',
      intervalSeconds: 10,
      procRoot: '/proc',
      hostRoot: '/',
      natsUrl: 'nats://bus:4222',
      ingest: undefined,
      stateDir: defaultStateDir(),
      spool: { dir: defaultSpoolDir(), maxBytes: 100 * 1024 * 1024 },
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

  it('reads the HTTP ingest and the spool settings', () => {
    const config = loadAgentConfig({
      AGENT_TENANT: 'acme',
      AGENT_INGEST_URL: 'https://fd.example.com',
      AGENT_ACCESS_KEY: 'k-1234567890',
      AGENT_SPOOL_DIR: '/var/spool/fd',
      AGENT_SPOOL_MAX_MB: '5',
    });
    expect(config.natsUrl).toBeUndefined();
    expect(config.ingest).toEqual({ url: 'https://fd.example.com', accessKey: 'k-1234567890' });
    expect(config.spool).toEqual({ dir: '/var/spool/fd', maxBytes: 5 * 1024 * 1024 });
  });

  it('needs NATS_URL or AGENT_INGEST_URL, and the access key with the latter', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadAgentConfig({ AGENT_TENANT: 'acme', ...env });
        return '';
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).problems.join('\n');
      }
    };
    expect(problems({})).toMatch(/NATS_URL or AGENT_INGEST_URL/);
    expect(problems({ AGENT_INGEST_URL: 'http://api:8080' })).toMatch(/AGENT_ACCESS_KEY/);
    expect(problems({ AGENT_INGEST_URL: 'ftp://api', AGENT_SPOOL_MAX_MB: '0' })).toMatch(
      /AGENT_INGEST_URL[\s\S]*AGENT_SPOOL_MAX_MB|AGENT_SPOOL_MAX_MB[\s\S]*AGENT_INGEST_URL/,
    );
    expect(problems({ NATS_URL: 'nats://bus:4222' })).toBe('');
  });

  it('puts the default spool under /var/lib for root, under the temporary directory otherwise', () => {
    expect(defaultSpoolDir(true)).toBe('/var/lib/flightdeck-agent/spool');
    expect(defaultSpoolDir(false)).toMatch(/flightdeck-agent\/spool$/);
  });

  it('takes the config file and lets environment variables override it; an empty variable does not', () => {
    const file: AgentConfigFile = {
      v: 1,
      api_url: 'https://fd.example.com',
      access_key: 'fdk_0123456789',
      tenant: '42',
      host_key: 'web-01',
      install_id: 7,
      interval_s: 30,
      nats_url: 'nats://bus.example.com:4222',
      registered_at: '2026-01-01T00:00:00.000Z',
      state_dir: '/var/lib/fd-test',
    };
    const host = { platform: 'linux' as const, isRoot: true };
    expect(loadAgentConfig({}, 'ignored', file, host)).toMatchObject({
      tenant: '42',
      hostKey: 'web-01',
      intervalSeconds: 30,
      natsUrl: 'nats://bus.example.com:4222',
      ingest: { url: 'https://fd.example.com', accessKey: 'fdk_0123456789' },
      stateDir: '/var/lib/fd-test',
      spool: { dir: '/var/lib/fd-test/spool' },
    });
    const overridden = loadAgentConfig(
      { AGENT_INTERVAL_S: '5', NATS_URL: '', AGENT_HOST_ROOT: '/rootfs', AGENT_PROC_ROOT: '/host/proc' },
      'ignored',
      file,
      host,
    );
    expect(overridden).toMatchObject({
      intervalSeconds: 5,
      natsUrl: 'nats://bus.example.com:4222',
      procRoot: '/host/proc',
      hostRoot: '/rootfs',
    });
    expect(() => loadAgentConfig({ AGENT_INTERVAL_S: 'often' }, 'x', file, host)).toThrow(/AGENT_INTERVAL_S/);
  });

  it('puts the config file and the state under /etc and /var/lib for root, %ProgramData% on Windows', () => {
    const linuxRoot = { platform: 'linux' as const, isRoot: true };
    const user = { platform: 'linux' as const, isRoot: false };
    const windows = { platform: 'win32' as const, isRoot: false };
    expect(defaultConfigFile({}, linuxRoot)).toBe('/etc/flightdeck-agent/agent.json');
    expect(defaultConfigFile({ HOME: '/home/ops' }, user)).toBe(
      '/home/ops/.config/flightdeck-agent/agent.json',
    );
    expect(defaultConfigFile({ XDG_CONFIG_HOME: '/cfg' }, user)).toBe('/cfg/flightdeck-agent/agent.json');
    expect(defaultConfigFile({ ProgramData: 'D:\\Data' }, windows)).toBe('D:\\Data\\Flightdeck\\agent.json');
    expect(defaultStateDir(linuxRoot)).toBe('/var/lib/flightdeck-agent');
    expect(defaultStateDir(windows, {})).toBe('C:\\ProgramData\\Flightdeck\\state');
    expect(configFilePath(undefined, {}, linuxRoot)).toEqual({
      file: '/etc/flightdeck-agent/agent.json',
      explicit: false,
    });
    expect(configFilePath(undefined, { AGENT_CONFIG: '/data/agent.json' }, linuxRoot)).toEqual({
      file: '/data/agent.json',
      explicit: false,
    });
    expect(configFilePath('/x/a.json', { AGENT_CONFIG: '/data/agent.json' }, linuxRoot)).toEqual({
      file: '/x/a.json',
      explicit: true,
    });
  });

  it('finds the state directory and host root without a complete configuration', () => {
    const host = { platform: 'linux' as const, isRoot: true };
    expect(agentPaths({}, undefined, host)).toEqual({
      stateDir: '/var/lib/flightdeck-agent',
      procRoot: '/proc',
      hostRoot: '/',
    });
    expect(
      agentPaths({ AGENT_PROC_ROOT: '/host/proc', AGENT_STATE_DIR: 'relative' }, undefined, host),
    ).toEqual({
      stateDir: '/var/lib/flightdeck-agent',
      procRoot: '/host/proc',
      hostRoot: '/host',
    });
  });
});

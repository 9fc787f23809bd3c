import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@flightdeck/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentConfigFile, configFileAsEnv, readConfigFile, writeConfigFile } from './config-file';

const valid: AgentConfigFile = {
  v: 1,
  api_url: 'https://fd.example.com',
  access_key: 'fdk_0123456789',
  tenant: '42',
  host_key: 'web-01',
  install_id: 7,
  interval_s: 10,
  registered_at: '2026-01-01T00:00:00.000Z',
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-agent-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function problems(text: string): string[] {
  const file = join(dir, 'agent.json');
  writeFileSync(file, text);
  try {
    readConfigFile(file);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  return [];
}

describe('the config file', () => {
  it('is written readable by its owner only, in a folder made for it, and read back', () => {
    const file = join(dir, 'etc/flightdeck-agent/agent.json');
    writeConfigFile(file, valid);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readConfigFile(file)).toEqual(valid);
    // A re-install replaces it whole.
    writeConfigFile(file, { ...valid, host_key: 'web-02', nats_url: 'nats://bus:4222' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      host_key: 'web-02',
      nats_url: 'nats://bus:4222',
    });
  });

  it('is undefined when there is none', () => {
    expect(readConfigFile(join(dir, 'none.json'))).toBeUndefined();
  });

  it('names the file and each bad field', () => {
    const file = join(dir, 'agent.json');
    const found = problems(JSON.stringify({ ...valid, interval_s: 0, api_url: 'ftp://x', colour: 'red' }));
    expect(found).toContain(`${file}: unknown field "colour"`);
    expect(found.some((p) => p.startsWith(`${file}: interval_s: `))).toBe(true);
    expect(found.some((p) => p.startsWith(`${file}: api_url: expected a URL starting with http`))).toBe(true);
    const { tenant: _, ...withoutTenant } = valid;
    expect(problems(JSON.stringify(withoutTenant))).toEqual([expect.stringMatching(/agent\.json: tenant: /)]);
    expect(problems('{"v": 1,')[0]).toMatch(new RegExp(`^${file}: not valid JSON: `));
  });

  it('stands for the environment variables of its values', () => {
    expect(configFileAsEnv({ ...valid, spool_max_mb: 5, proc_root: '/host/proc' })).toEqual({
      AGENT_TENANT: '42',
      AGENT_HOST_KEY: 'web-01',
      AGENT_INTERVAL_S: '10',
      AGENT_INGEST_URL: 'https://fd.example.com',
      AGENT_ACCESS_KEY: 'fdk_0123456789',
      AGENT_PROC_ROOT: '/host/proc',
      AGENT_SPOOL_MAX_MB: '5',
    });
  });
});

import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFilesWatcher, hostKeyFromHostname, httpFilesSync } from '@flightdeck/agent';
import {
  AgentKeyData,
  type MonitoredFile,
  MonitoredFileDetail,
  MonitoredFile as MonitoredFileSchema,
  MonitoredFilesData,
  okEnvelope,
  PathTestCreated,
  PathTestResult,
  ServersListData,
  SigninData,
} from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type RunningFlightdeck, startFlightdeck } from './all-in-one';
import { freePort } from './product-process';

/**
 * Critical files end to end, without a browser: the embedded product (its local agent syncs in
 * process every second), and an agent on another host syncing over HTTP with the access key.
 */

const dir = mkdtempSync(join(tmpdir(), 'fd-files-it-'));
const files = mkdtempSync(join(tmpdir(), 'fd-files-it-watched-'));
const ADMIN = { email: 'files@example.com', password: 'correct horse battery' };
let running: RunningFlightdeck;
let token = '';
let agentKey = '';
let tenant = '';

async function call<T extends z.ZodType>(
  path: string,
  body: unknown,
  data: T,
  bearer = token,
): Promise<z.output<T>> {
  const res = await fetch(`${running.url}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  expect(res.ok, `${path}: ${text}`).toBe(true);
  const parsed = okEnvelope(data).parse(JSON.parse(text)) as { data: z.output<T> };
  return parsed.data;
}

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function fileWithStatus(id: number, status: MonitoredFile['status']) {
  return waitFor(`file ${id} to be ${status}`, async () => {
    const file = await call('/flightdeck/cockpit/flies_critical/get', { id }, MonitoredFileDetail);
    return file.status === status ? file : undefined;
  });
}

async function serverId(hostKey: string): Promise<number> {
  return waitFor(`server ${hostKey}`, async () => {
    const servers = await call('/bot/servers/list', {}, ServersListData);
    return servers.find((s) => s.host_key === hostKey)?.id;
  });
}

beforeAll(async () => {
  running = await startFlightdeck(
    {
      PORT: String(await freePort()),
      DATA_DIR: dir,
      AGENT_INTERVAL_S: '1',
      FLIGHTDECK_ADMIN_EMAIL: ADMIN.email,
      FLIGHTDECK_ADMIN_PASSWORD: ADMIN.password,
    },
    pino({ level: 'silent' }),
  );
  token = (await call('/signin', ADMIN, SigninData, '')).token;
  const key = await call('/workers/get_agent_key', {}, AgentKeyData);
  agentKey = key.key!;
  // The first start makes one customer, the first row: the tenant of its agents.
  tenant = '1';
});

afterAll(async () => {
  await running?.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

describe('critical files', () => {
  it('the embedded agent hashes an added file, sees it change, and the baseline follows an equalize', async () => {
    const server = await serverId(hostKeyFromHostname(hostname()));
    const path = join(files, 'app.conf');
    writeFileSync(path, 'listen 80;\n');

    const created = await call('/server/test_full_path', { server_id: server, path }, PathTestCreated);
    const test = await waitFor('the path test', async () => {
      const r = await call('/server/test_result', { test_id: created.test_id }, PathTestResult);
      return r.status === 'pending' ? undefined : r;
    });
    expect(test).toMatchObject({ status: 'ok', size: 11 });

    const added = await call(
      '/flightdeck/cockpit/flies_critical/new',
      { server_id: server, path },
      MonitoredFileSchema,
    );
    expect(added.status).toBe('pending');
    const ok = await fileWithStatus(added.id, 'ok');
    expect(ok.baseline_sha256).toMatch(/^[0-9a-f]{64}$/);

    appendFileSync(path, 'listen 443 ssl;\n');
    const changed = await fileWithStatus(added.id, 'changed');
    expect(changed.changes[0]).toMatchObject({ previous_sha256: ok.baseline_sha256, sha256: changed.sha256 });

    const equalized = await call(
      '/flightdeck/cockpit/flies_critical/equilize',
      { id: added.id },
      MonitoredFileDetail,
    );
    expect(equalized).toMatchObject({ status: 'ok', baseline_sha256: changed.sha256 });
    // The next checks keep it ok.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(
      (await call('/flightdeck/cockpit/flies_critical/get', { id: added.id }, MonitoredFileDetail)).status,
    ).toBe('ok');
  });

  it('an agent on another host syncs over HTTP with the access key', async () => {
    const host = 'files-http-host';
    const ingest = await fetch(`${running.url}/api/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        batches: [],
        heartbeat: {
          v: 1,
          tenant,
          host,
          agent_version: '1.0.0',
          interval_s: 10,
          spool_depth: 0,
          spool_dropped: 0,
          ts: Date.now(),
        },
      }),
    });
    expect(ingest.status).toBe(202);
    const server = await serverId(host);
    const path = join(files, 'remote.conf');
    writeFileSync(path, 'a=1\n');
    const added = await call('/server/add_config_file', { server_id: server, path }, MonitoredFileSchema);

    const watcher = createFilesWatcher({
      sync: httpFilesSync({ url: running.url, accessKey: agentKey }),
      tenant,
      host,
      intervalMs: 60_000,
      logger: pino({ level: 'silent' }),
    });
    expect(await watcher.runOnce()).toMatchObject({ synced: true, checked: 1 });
    const listed = await call('/server/get_files_monitored', { server_id: server }, MonitoredFilesData);
    expect(listed).toEqual([expect.objectContaining({ id: added.id, status: 'ok' })]);

    const wrong = httpFilesSync({ url: running.url, accessKey: 'fdk_not-a-key' });
    await expect(wrong({ tenant, host, results: [], tests: [] })).rejects.toThrow(
      /refused by http:\/\/localhost:\d+\/api\/agent\/files\/sync \(401 unauthorized\)/,
    );
  });
});

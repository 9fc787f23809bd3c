import { AgentRegisterData } from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentKey } from '../../hosts/agent-keys';
import {
  createAccount,
  createTestApp,
  expectError,
  expectOk,
  post,
  sameDbApp,
  type TestApp,
} from '../auth/test-app';

let base: TestApp;
let keyA = '';
let keyB = '';
let customerA = 0;

const machine = (n: number) => `${'ab'.repeat(16)}${n}`;
const register = (body: unknown, key = keyA, app: Pick<TestApp['app'], 'request'> = base.app) =>
  post(app, '/api/agent/register', body, key);

beforeAll(async () => {
  base = await createTestApp();
  const a = await createAccount(base.t.db, 'a@example.com', 'correct-horse-battery');
  const b = await createAccount(base.t.db, 'b@example.com', 'correct-horse-battery');
  customerA = a.customer_id;
  keyA = (await createAgentKey(base.t.db, a.customer_id, 'default')).key;
  keyB = (await createAgentKey(base.t.db, b.customer_id, 'default')).key;
});
afterAll(async () => {
  await base?.drop();
});

describe('POST /api/agent/register', () => {
  it('answers the same install and host key when the same machine registers again', async () => {
    const first = await expectOk(
      await register({ machine_id: machine(1), hostname: 'Web-01.example.com', platform: 'linux' }),
      AgentRegisterData,
    );
    expect(first.data).toEqual({
      tenant: String(customerA),
      host_key: 'web-01-example-com',
      install_id: expect.any(Number),
      interval_s: 10,
    });
    const again = await expectOk(
      await register({ machine_id: machine(1), hostname: 'renamed', platform: 'linux' }),
      AgentRegisterData,
    );
    expect(again.data).toEqual(first.data);
    const rows = await base.t.db.selectFrom('agent_installs').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ hostname: 'renamed', customer_id: customerA });
  });

  it('gives another machine with the same key an install and a host key of its own', async () => {
    const a = await expectOk(
      await register({ machine_id: machine(2), hostname: 'db', platform: 'linux' }),
      AgentRegisterData,
    );
    const b = await expectOk(
      await register({ machine_id: machine(3), hostname: 'DB', platform: 'windows' }),
      AgentRegisterData,
    );
    expect(a.data.host_key).toBe('db');
    expect(b.data.host_key).toBe('db-2');
    expect(b.data.install_id).not.toBe(a.data.install_id);
    // Another customer's key: its own tenant, and the host key is free there.
    const other = await expectOk(
      await register({ machine_id: machine(2), hostname: 'db', platform: 'linux' }, keyB),
      AgentRegisterData,
    );
    expect(other.data.tenant).not.toBe(a.data.tenant);
    expect(other.data.host_key).toBe('db');
  });

  it('refuses a missing, wrong or revoked access key', async () => {
    const body = { machine_id: machine(4), hostname: 'x', platform: 'linux' };
    await expectError(await register(body, ''), 401, 'unauthorized');
    await expectError(await register(body, 'fdk_wrong-key-000000000000000000000000000'), 401, 'unauthorized');
    const revoked = (await createAgentKey(base.t.db, customerA, 'default')).key;
    await expectError(await register(body, keyA), 401, 'unauthorized');
    keyA = revoked;
    expect((await register(body)).status).toBe(200);
  });

  it('names the field of a bad body', async () => {
    const bad = await expectError(
      await register({ machine_id: machine(5), hostname: 'x', platform: 'solaris' }),
      400,
      'validation_failed',
    );
    expect(bad.path).toEqual(['platform']);
    const short = await expectError(
      await register({ machine_id: 'abc', hostname: 'x', platform: 'linux' }),
      400,
      'validation_failed',
    );
    expect(short.path).toEqual(['machine_id']);
    const extra = await expectError(
      await register({ machine_id: machine(5), hostname: 'x', platform: 'linux', tenant: '9' }),
      400,
      'validation_failed',
    );
    expect(extra.message).toContain('tenant');
  });

  it('hands out the NATS address for agents when the api has one', async () => {
    const app = sameDbApp(base, {
      config: { ...base.deps.config, AGENT_NATS_URL: 'nats://bus.example.com:4222' },
    });
    const res = await expectOk(
      await register({ machine_id: machine(1), hostname: 'web', platform: 'linux' }, keyA, app),
      AgentRegisterData,
    );
    expect(res.data.nats_url).toBe('nats://bus.example.com:4222');
  });
});

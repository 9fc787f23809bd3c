import { type AgentKeyData, AgentKeyRequest, type OkEnvelope } from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import type { AgentKey } from '../../db/types';
import type { AppDeps, AppEnv } from '../../env';
import { activeAgentKey, createAgentKey, DEFAULT_AGENT_KEY_NAME } from '../../hosts/agent-keys';
import { jsonBody } from '../../http/body';

function keyData(row: AgentKey, key: string | null): OkEnvelope<AgentKeyData> {
  return {
    status: 'ok',
    data: {
      key,
      key_prefix: row.key_prefix,
      name: row.name,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
    },
  };
}

/**
 * `POST /workers/get_agent_key` (spec section 7): the access key agents of the signed-in customer
 * send to `/ingest`. One key serves every install; the full key is shown only when made.
 */
export function agentKeyRoutes(deps: AppDeps) {
  const { db } = deps;
  return (
    new Hono<AppEnv>()
      .use('/workers/*', requireSession(db))
      // The key the Deploy page shows (prefix only), without making one as get_agent_key would.
      .get('/workers/agent_key', async (c) => {
        const current = await activeAgentKey(db, c.get('session').customerId);
        const body: OkEnvelope<AgentKeyData | null> = {
          status: 'ok',
          data: current ? keyData(current, null).data : null,
        };
        return c.json(body);
      })
      .post('/workers/get_agent_key', jsonBody(AgentKeyRequest), async (c) => {
        const { name, rotate } = c.req.valid('json');
        const { customerId } = c.get('session');
        const current = await activeAgentKey(db, customerId);
        if (current && !rotate) return c.json(keyData(current, null));
        const created = await createAgentKey(db, customerId, name ?? current?.name ?? DEFAULT_AGENT_KEY_NAME);
        return c.json(keyData(created.row, created.key));
      })
  );
}

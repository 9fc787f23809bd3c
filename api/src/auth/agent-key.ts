import type { MiddlewareHandler } from 'hono';
import type { Db } from '../db/kysely';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { verifyAgentKey } from '../hosts/agent-keys';

/** Hono variables of a call an agent makes: the customer its access key belongs to. */
export type AgentCallEnv = AppEnv & { Variables: { agentCustomerId: number } };

/**
 * Lets a request through only with an active agent access key as bearer token
 * (`Authorization: Bearer fdk_...`) and sets `c.var.agentCustomerId`; otherwise 401 `unauthorized`.
 * For the calls agents make without a session: `/ingest`, `/agent/files/sync`.
 */
export function requireAgentKey(db: Db): MiddlewareHandler<AgentCallEnv> {
  return async (c, next) => {
    const header = c.req.header('Authorization') ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const customerId = m ? await verifyAgentKey(db, m[1]!) : undefined;
    if (customerId === undefined)
      throw ApiError.of('unauthorized', 'The agent access key is missing, wrong or revoked.');
    c.set('agentCustomerId', customerId);
    await next();
  };
}

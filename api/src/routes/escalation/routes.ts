import {
  type EscalationChain,
  type EscalationConfigData,
  EscalationConfigRequest,
  type EscalationIntegration,
  EscalationSteps,
  type OkEnvelope,
  SaveEscalationConfigRequest,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import type { EscalationChainRow } from '../../db/types';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import { requireResource } from '../../plans/guards';

/** The plan resource of the escalation page (`/flightdeck/management/escalation`). */
export const ESCALATION_RESOURCE = 'flightdeck.management.escalation';

const INTEGRATION = '/integrations/integration';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

const CHANNELS = ['email', 'telegram', 'slack', 'gchat', 'whatsapp'] as const;
type Channel = (typeof CHANNELS)[number];

/** A stored chain, or why it cannot be used. */
export function parseChain(row: EscalationChainRow): EscalationChain | string {
  let steps: unknown;
  try {
    steps = JSON.parse(row.steps);
  } catch {
    return 'the stored chain is not JSON';
  }
  const parsed = EscalationSteps.safeParse(steps);
  if (!parsed.success) return `the stored chain is not valid: ${parsed.error.issues[0]?.message}`;
  return { severity: row.severity, steps: parsed.data, updated_at: Number(row.updated_at) };
}

/** The active users of a customer and their linked integrations: what a step can name. */
async function candidates(db: Db, customerId: number) {
  const users = await db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('customer_id', '=', customerId)
    .where('status', '=', 'ACTIVE')
    .orderBy('name')
    .orderBy('id')
    .execute();
  const active = new Set(users.map((u) => u.id));
  const rows = await db
    .selectFrom('notification_integrations')
    .select(['id', 'user_id', 'channel', 'target', 'detail', 'status'])
    .where('customer_id', '=', customerId)
    .where('target', '<>', '')
    .orderBy('user_id')
    .orderBy('channel')
    .execute();
  const integrations: EscalationIntegration[] = rows
    .filter((r) => active.has(r.user_id) && (CHANNELS as readonly string[]).includes(r.channel))
    .map((r) => ({
      id: r.id,
      user_id: r.user_id,
      channel: r.channel as Channel,
      target: r.channel === 'telegram' && r.detail ? `@${r.detail}` : r.target,
      enabled: r.status === 'enabled',
    }));
  return { users: users.map((u) => ({ id: u.id, name: u.name, email: u.email })), integrations };
}

/**
 * Escalation chains (spec section 7, "Integrations"): `escalation_config` answers the customer's
 * chains and who can be named in them (any signed-in user may read them); `save_escalation_config`
 * replaces the chain of one severity and needs the plan's escalation page. A chain of only its
 * first step removes the chain. The alert service's escalation runner reads the saved chains.
 */
export function escalationRoutes(deps: AppDeps) {
  const { db, logger } = deps;
  const session = requireSession(db);
  const plan = requireResource(db, ESCALATION_RESOURCE);

  async function config(customerId: number): Promise<EscalationConfigData> {
    const rows = await db
      .selectFrom('escalation_chains')
      .selectAll()
      .where('customer_id', '=', customerId)
      .execute();
    const chains: EscalationChain[] = [];
    for (const row of rows) {
      const chain = parseChain(row);
      if (typeof chain === 'string') {
        logger.error(
          { tenant: customerId, severity: row.severity, reason: chain },
          'escalation chain left out',
        );
      } else chains.push(chain);
    }
    const order = { default: 0, R: 1, Y: 2 } as const;
    chains.sort((a, b) => order[a.severity] - order[b.severity]);
    return { chains, ...(await candidates(db, customerId)) };
  }

  return new Hono<AppEnv>()
    .post(`${INTEGRATION}/escalation_config`, session, jsonBody(EscalationConfigRequest), async (c) => {
      const { customerId } = c.get('session');
      return c.json(ok<EscalationConfigData>(await config(customerId)));
    })
    .post(
      `${INTEGRATION}/save_escalation_config`,
      session,
      plan,
      jsonBody(SaveEscalationConfigRequest),
      async (c) => {
        const { customerId, userId } = c.get('session');
        const { severity, steps } = c.req.valid('json');
        const known = await candidates(db, customerId);
        const users = new Set(known.users.map((u) => u.id));
        const integrations = new Set(known.integrations.map((i) => i.id));
        steps.forEach((step, i) => {
          for (const r of step.recipients) {
            if (r.kind === 'user' && !users.has(r.user_id)) {
              throw ApiError.of(
                'validation_failed',
                `Step ${i + 1} names user ${r.user_id}, who is not an active user of your account.`,
              );
            }
            if (r.kind === 'integration' && !integrations.has(r.integration_id)) {
              throw ApiError.of(
                'validation_failed',
                `Step ${i + 1} names integration ${r.integration_id}, which is not one of your account's integrations.`,
              );
            }
          }
        });
        if (steps.length === 1) {
          await db
            .deleteFrom('escalation_chains')
            .where('customer_id', '=', customerId)
            .where('severity', '=', severity)
            .execute();
        } else {
          const values = { steps: JSON.stringify(steps), updated_at: unixNow(), updated_by: userId };
          await db
            .insertInto('escalation_chains')
            .values({ customer_id: customerId, severity, ...values })
            .onConflict((oc) => oc.columns(['customer_id', 'severity']).doUpdateSet(values))
            .execute();
        }
        return c.json(ok<EscalationConfigData>(await config(customerId)));
      },
    );
}

import { type AgentRegisterData, AgentRegisterRequest, type OkEnvelope } from '@flightdeck/schemas';
import { Hono } from 'hono';
import { type AgentCallEnv, requireAgentKey } from '../../auth/agent-key';
import type { AppDeps } from '../../env';
import { registerInstall } from '../../hosts/installs';
import { jsonBody } from '../../http/body';

/** Seconds between samples an agent is told to use when it registers. */
export const DEFAULT_AGENT_INTERVAL_S = 10;

/**
 * `POST /agent/register`: what `flightdeck-agent register` calls once per install, with the
 * customer's agent access key and no session. One key serves any number of installs; one system
 * (machine id) is one install, so a re-install answers the same host key.
 */
export function agentRoutes(deps: AppDeps) {
  const { db, config } = deps;
  return new Hono<AgentCallEnv>().post(
    '/agent/register',
    requireAgentKey(db),
    jsonBody(AgentRegisterRequest),
    async (c) => {
      const body = c.req.valid('json');
      const customerId = c.get('agentCustomerId');
      const install = await registerInstall(db, customerId, {
        machineId: body.machine_id,
        hostname: body.hostname,
        platform: body.platform,
      });
      deps.logger.info(
        { customer: customerId, install: install.id, host: install.host_key },
        'agent registered',
      );
      const data: AgentRegisterData = {
        tenant: String(customerId),
        host_key: install.host_key,
        install_id: install.id,
        interval_s: DEFAULT_AGENT_INTERVAL_S,
        ...(config.AGENT_NATS_URL ? { nats_url: config.AGENT_NATS_URL } : {}),
      };
      return c.json({ status: 'ok', data } satisfies OkEnvelope<AgentRegisterData>);
    },
  );
}

import {
  type ErrorEnvelope,
  IngestRequest,
  InvalidBatchError,
  type MetricBatch,
  type OkEnvelope,
  parseMetricBatch,
} from '@flightdeck/schemas';
import { type Context, Hono } from 'hono';
import { type AgentCallEnv, requireAgentKey } from '../../auth/agent-key';
import type { AppDeps } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';

/** A field path string such as `samples[7].v` as envelope path parts: `['samples', 7, 'v']`. */
function pathParts(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

function invalidBatch(c: Context, index: number, err: InvalidBatchError) {
  const field = `batches[${index}]${err.path ? (err.path.startsWith('[') ? err.path : `.${err.path}`) : ''}`;
  const body: ErrorEnvelope = {
    status: 'error',
    code: 'invalid_batch',
    message: `${field}: ${err.reason}`,
    path: pathParts(field),
  };
  return c.json(body, 400);
}

/**
 * `POST /ingest` (DESIGN section 2): the agent's HTTP transport. Open to callers without a session;
 * the access key (`Authorization: Bearer fdk_...`) names the customer, and every batch and the
 * heartbeat must belong to it. Valid batches go to the bus as the NATS transport would send them.
 */
export function ingestRoutes(deps: AppDeps) {
  const { bus } = deps;
  return new Hono<AgentCallEnv>().post(
    '/ingest',
    requireAgentKey(deps.db),
    jsonBody(IngestRequest),
    async (c) => {
      const { batches, heartbeat } = c.req.valid('json');
      const tenant = String(c.get('agentCustomerId'));
      const valid: MetricBatch[] = [];
      for (let i = 0; i < batches.length; i++) {
        let batch: MetricBatch;
        try {
          batch = parseMetricBatch(batches[i]);
        } catch (err) {
          if (err instanceof InvalidBatchError) return invalidBatch(c, i, err);
          throw err;
        }
        if (batch.tenant !== tenant) {
          throw ApiError.of(
            'forbidden',
            `batches[${i}].tenant: the access key does not belong to this tenant.`,
          );
        }
        valid.push(batch);
      }
      if (heartbeat && heartbeat.tenant !== tenant) {
        throw ApiError.of('forbidden', 'heartbeat.tenant: the access key does not belong to this tenant.');
      }
      try {
        for (const batch of valid) await bus.publishMetrics(batch);
        if (heartbeat) await bus.publishHeartbeat(heartbeat);
      } catch (err) {
        if (err instanceof InvalidBatchError) throw ApiError.of('invalid_batch', err.message);
        deps.logger.warn({ err, tenant }, 'ingest: the bus refused a batch');
        throw ApiError.of('bus_unavailable');
      }
      return c.json(
        { status: 'ok', data: { accepted: valid.length } } satisfies OkEnvelope<{ accepted: number }>,
        202,
      );
    },
  );
}

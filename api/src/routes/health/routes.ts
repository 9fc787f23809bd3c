import {
  type CollectorComponentHealth,
  CollectorComponentHealth as CollectorHealthSchema,
  type ComponentHealth,
  type ComponentState,
  type HealthResponse,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppDeps, AppEnv } from '../../env';

/** A component that does not answer within this time counts as down. */
const PROBE_TIMEOUT_MS = 3_000;

async function probe<T extends ComponentHealth>(check: () => Promise<T>): Promise<T | ComponentHealth> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ComponentHealth>((resolve) => {
    timer = setTimeout(
      () => resolve({ state: 'down', detail: `no answer within ${PROBE_TIMEOUT_MS / 1000} s` }),
      PROBE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([check(), timeout]);
  } catch (err) {
    return { state: 'down', detail: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

const RANK: Record<ComponentState, number> = { ok: 0, degraded: 1, down: 2 };

/** `GET /health`: open; 200 while every component is ok or degraded, 503 (same body) when one is down. */
export function healthRoutes(deps: AppDeps) {
  const startedAt = Date.now();
  return new Hono<AppEnv>().get('/health', async (c) => {
    const collectorCheck = deps.collector;
    const [bus, metadata_db, metric_store, collectorRaw] = await Promise.all([
      probe(() => deps.bus.health()),
      probe(async (): Promise<ComponentHealth> => {
        await sql`select 1`.execute(deps.db);
        return { state: 'ok' };
      }),
      probe(() => deps.store.health()),
      collectorCheck
        ? probe(() => collectorCheck.health())
        : Promise.resolve<ComponentHealth>({ state: 'ok', detail: 'not running in this process' }),
    ]);
    const parsed = CollectorHealthSchema.safeParse(collectorRaw);
    const collector: CollectorComponentHealth = parsed.success
      ? parsed.data
      : { state: 'degraded', detail: 'the collector reported an unreadable health' };
    const components = {
      bus: { state: bus.state, ...(bus.detail ? { detail: bus.detail } : {}) },
      metadata_db,
      metric_store: {
        state: metric_store.state,
        ...(metric_store.detail ? { detail: metric_store.detail } : {}),
      },
      collector,
    };
    const status = Object.values(components).reduce<ComponentState>(
      (worst, comp) => (RANK[comp.state] > RANK[worst] ? comp.state : worst),
      'ok',
    );
    const body: HealthResponse = {
      status: 'ok',
      data: {
        status,
        version: deps.version,
        uptime_s: Math.floor((Date.now() - startedAt) / 1000),
        components,
      },
    };
    c.header('Cache-Control', 'no-store');
    return c.json(body, status === 'down' ? 503 : 200);
  });
}

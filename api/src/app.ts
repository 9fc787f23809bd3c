import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ERROR_FALLBACK_MESSAGES, type ErrorEnvelope } from '@flightdeck/schemas';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import type { AppDeps, AppEnv } from './env';
import { ApiError, errorHandler } from './errors';
import { agentRoutes } from './routes/agent/routes';
import { alertRoutes } from './routes/alerts/routes';
import { authRoutes } from './routes/auth/routes';
import { customerRoutes } from './routes/customer/routes';
import { dbtoolsRoutes } from './routes/dbtools/routes';
import { downloadsRoutes } from './routes/downloads/routes';
import { escalationRoutes } from './routes/escalation/routes';
import { filesRoutes } from './routes/files/routes';
import { healthRoutes } from './routes/health/routes';
import { agentKeyRoutes } from './routes/ingest/agent-key';
import { ingestRoutes } from './routes/ingest/routes';
import { integrationRoutes } from './routes/integrations/routes';
import { maintenanceRoutes } from './routes/maintenance/routes';
import { onboardingRoutes } from './routes/onboarding/routes';
import { linuxRoutes } from './routes/servers/linux';
import { serverRoutes } from './routes/servers/routes';
import { userRoutes } from './routes/user/routes';

/** Largest JSON body accepted under /api (attachments go through their own upload call). */
export const MAX_JSON_BODY_BYTES = 2 * 1024 * 1024;

/** The /api sub-app: one sub-app per domain, chained so its type can drive a typed client. */
export function createApiRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .use(
      '*',
      bodyLimit({
        maxSize: MAX_JSON_BODY_BYTES,
        onError: () => {
          throw ApiError.of('payload_too_large');
        },
      }),
    )
    .route('/', healthRoutes(deps))
    .route('/', authRoutes(deps))
    .route('/', customerRoutes(deps))
    .route('/', userRoutes(deps))
    .route('/', serverRoutes(deps))
    .route('/', linuxRoutes(deps))
    .route('/', agentKeyRoutes(deps))
    .route('/', ingestRoutes(deps))
    .route('/', agentRoutes(deps))
    .route('/', filesRoutes(deps))
    .route('/', downloadsRoutes(deps))
    .route('/', onboardingRoutes(deps))
    .route('/', dbtoolsRoutes(deps))
    .route('/', alertRoutes(deps))
    .route('/', maintenanceRoutes(deps))
    .route('/', integrationRoutes(deps))
    .route('/', escalationRoutes(deps));
}
export type ApiRoutes = ReturnType<typeof createApiRoutes>;

const notFoundBody: ErrorEnvelope = {
  status: 'error',
  code: 'not_found',
  message: ERROR_FALLBACK_MESSAGES.not_found,
};

/**
 * The HTTP app: every API call under /api, one error handler for all of them, and, when
 * `consoleDir` is given, the built console with an SPA fallback for any other GET path.
 */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requestId());
  app.onError(errorHandler(deps.logger));

  app.route('/api', createApiRoutes(deps));
  // Unknown /api paths answer in the envelope and never fall through to the console.
  app.all('/api', (c) => c.json(notFoundBody, 404));
  app.all('/api/*', (c) => c.json(notFoundBody, 404));

  if (deps.consoleDir) serveConsole(app, resolve(deps.consoleDir));

  app.notFound((c) => c.json(notFoundBody, 404));
  return app;
}

/** Hashed build assets never change under one name; index.html must always be fetched again. */
function serveConsole(app: Hono<AppEnv>, dir: string): void {
  const indexFile = join(dir, 'index.html');
  // Cache headers go on before serveStatic builds its response; a later handler may replace them.
  app.use('/assets/*', async (c, next) => {
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    await next();
  });
  app.use('/assets/*', serveStatic({ root: dir }));
  app.get('/assets/*', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.text('Not Found', 404);
  });
  app.use('*', async (c, next) => {
    const page = c.req.path.endsWith('/') || c.req.path.endsWith('.html');
    c.header('Cache-Control', page ? 'no-cache' : 'public, max-age=3600');
    await next();
  });
  app.use('*', serveStatic({ root: dir }));
  app.get('*', async (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(await readFile(indexFile, 'utf8'));
  });
}

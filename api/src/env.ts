import type { Bus } from '@flightdeck/collector/bus';
import type { ComponentHealth, MetricStore } from '@flightdeck/collector/store';
import type { CollectorComponentHealth, CollectorPresence } from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { SessionInfo } from './auth/sessions';
import type { ApiConfig } from './config';
import type { Db } from './db/kysely';
import type { Mailer } from './mail/contract';
import type { AlertService } from './routes/alerts/service';

/** What the app is built from; the start script (or a test) makes each part. */
export interface AppDeps {
  db: Db;
  store: MetricStore;
  bus: Bus;
  /** The collector when it runs in this process; its health and counters show in /api/health. */
  collector?: { health(): Promise<CollectorComponentHealth> };
  /** Which collectors poll agentless targets (`startAgentlessCoordinator`); absent: none known. */
  agentless?: { liveCollectors(): CollectorPresence[]; servicesChanged?(): void };
  config: ApiConfig;
  logger: Logger;
  /** Product version reported by /api/health. */
  version: string;
  /** Built console (console/dist); when given, served with an SPA fallback. */
  consoleDir?: string;
  /** Sends the sign-up and recovery e-mails; absent: built from SMTP_URL (`createMailer`). */
  mailer?: Mailer;
  /** The alert service (`startAlertService`); absent: alerts are recorded and published, not notified. */
  alerts?: AlertService;
}

/** Hono variables of every request: the request id, and the session once `requireSession` ran. */
export type AppEnv = {
  Variables: {
    requestId: string;
    session: SessionInfo;
  };
};

export type { ComponentHealth };

import { join } from 'node:path';
import { NOTIFY_ENV_FIELDS } from '@flightdeck/collector/notify';
import { metricsStoreProblem } from '@flightdeck/collector/store';
import { env, parseEnv } from '@flightdeck/schemas';
import { z } from 'zod';
import { parseSecretsKey } from './crypto/secrets';

const POSTGRES_URL_RE = /^postgres(ql)?:\/\//i;

/**
 * The api's environment variables. Each key is the variable's name; `loadApiConfig` parses them
 * once at start-up and stops with a message naming every variable that does not fit.
 */
export const ApiEnvSchema = z.object({
  /** TCP port the HTTP server listens on. Default 8080. */
  PORT: env.port(8080),
  /** Folder for the embedded databases and attachments; created when missing. Default `./data`. */
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * Metadata database: a SQLite file path, or a `postgres://user:password@host:port/db` URL.
   * Default `<DATA_DIR>/flightdeck.db`.
   */
  DATABASE_URL: z
    .string()
    .refine(
      (v) => POSTGRES_URL_RE.test(v) || /^sqlite:/i.test(v) || !/^[a-z][a-z0-9+.-]*:\/\//i.test(v),
      'expected a SQLite file path or a postgres:// URL',
    )
    .optional(),
  /**
   * Metric store: a SQLite file path, or a QuestDB configuration string (`http::addr=host:9000;`).
   * Default `<DATA_DIR>/metrics.db`.
   */
  METRICS_STORE: z
    .string()
    .superRefine((v, ctx) => {
      const problem = metricsStoreProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /** NATS server (`nats://host:4222`). Absent: the in-process bus of the embedded mode. */
  NATS_URL: env.url(['nats', 'tls']).optional(),
  /**
   * NATS address agents on other hosts publish to (`nats://monitor.example.com:4222`), handed to
   * each agent when it registers. Absent: agents publish through the api's HTTP ingest.
   */
  AGENT_NATS_URL: env.url(['nats', 'tls', 'ws', 'wss']).optional(),
  /**
   * Address users reach the console at (`https://monitor.example.com`). Used in links sent by
   * e-mail; when it is https the session cookie is marked Secure.
   */
  PUBLIC_URL: env.url(['http', 'https']).optional(),
  /**
   * Folder holding the agent packages `npm run package:agent` builds, served under
   * /api/downloads/agent. Default: `dist/packages` of the install (next to the built console).
   */
  AGENT_PACKAGES_DIR: z.string().min(1).optional(),
  /**
   * Key that encrypts the passwords of agentless services (AES-256-GCM): 32 bytes as 64 hex
   * characters or base64. Absent: a key is made on the first start and kept in
   * `<DATA_DIR>/secrets.key` (mode 0600); set it when several api processes share one database.
   */
  SECRETS_KEY: z
    .string()
    .refine((v) => parseSecretsKey(v) !== null, 'expected 32 bytes as 64 hex characters or base64')
    .optional(),
  /** pino log level: fatal, error, warn, info, debug, trace or silent. Default info. */
  LOG_LEVEL: env.logLevel(),
  /** E-mail of the system administrator created on the first start. Default admin@flightdeck.local. */
  FLIGHTDECK_ADMIN_EMAIL: z.email('expected an e-mail address').optional(),
  /**
   * Password of the system administrator created on the first start (at least 8 characters).
   * Absent: a random password is generated and printed once.
   */
  FLIGHTDECK_ADMIN_PASSWORD: z.string().min(8, 'expected at least 8 characters').optional(),
  /** Hours a session stays valid after sign-in. Default 168 (7 days). */
  SESSION_TTL_HOURS: env.int(168, 1),
  /**
   * SMTP server for the sign-up and password-recovery codes: `smtp://user:pass@host:587`
   * (STARTTLS when the server offers it) or `smtps://user:pass@host:465` (TLS from the start).
   * Absent: no e-mail is sent; each message, code included, is written to the log at warn level
   * instead, so a single-machine `npm start` still lets people sign up and recover passwords.
   */
  SMTP_URL: env.url(['smtp', 'smtps']).optional(),
  /** Sender of those e-mails. Default `Flightdeck <no-reply@flightdeck.local>`. */
  SMTP_FROM: z
    .string()
    .trim()
    .min(3, 'expected a sender such as Name <address@example.com>')
    .default('Flightdeck <no-reply@flightdeck.local>'),
  /**
   * The chat channels of alert notifications and integrations: TELEGRAM_BOT_TOKEN,
   * TELEGRAM_API_URL, SLACK_BOT_TOKEN, SLACK_API_URL, SLACK_WEBHOOK_URL, GCHAT_API_URL,
   * WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_API_URL, WHATSAPP_API_VERSION. Base URLs
   * default to the real services.
   */
  ...NOTIFY_ENV_FIELDS,
});
export type ApiEnv = z.infer<typeof ApiEnvSchema>;

/**
 * The api's configuration, parsed once and frozen: the variables by name, with the defaults that
 * depend on DATA_DIR filled in.
 */
export type ApiConfig = Readonly<ApiEnv & { DATABASE_URL: string; METRICS_STORE: string }>;

/**
 * Parses the environment (by default `process.env`). Throws `ConfigError` listing every problem,
 * each naming its variable, e.g. `PORT: expected a port from 1 to 65535 (got "70000")`.
 */
export function loadApiConfig(environment: Record<string, string | undefined> = process.env): ApiConfig {
  const e = parseEnv(ApiEnvSchema, environment);
  return Object.freeze({
    ...e,
    DATABASE_URL: e.DATABASE_URL ?? join(e.DATA_DIR, 'flightdeck.db'),
    METRICS_STORE: e.METRICS_STORE ?? join(e.DATA_DIR, 'metrics.db'),
    FLIGHTDECK_ADMIN_EMAIL: e.FLIGHTDECK_ADMIN_EMAIL?.toLowerCase(),
  });
}

/** True when PUBLIC_URL is https: the session cookie then carries `Secure`. */
export function usesSecureCookies(config: Pick<ApiConfig, 'PUBLIC_URL'>): boolean {
  return config.PUBLIC_URL?.toLowerCase().startsWith('https:') ?? false;
}

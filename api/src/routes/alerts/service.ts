import { ALERTS_WORKER } from '@flightdeck/collector';
import type { Bus, Subscription } from '@flightdeck/collector/bus';
import {
  createNotificationQueue,
  createNotifiers,
  type Notification,
  type NotificationQueue,
  type NotificationQueueOptions,
  type Notifier,
  type NotifyEnv,
  notifierSettingsFromEnv,
} from '@flightdeck/collector/notify';
import {
  type AlertRulesData,
  AlertRulesParams,
  type AlertTransitionsData,
  AlertTransitionsParams,
  type CommandReply,
  type CommandRequest,
} from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { ApiConfig } from '../../config';
import { createSecretBox, loadOrCreateSecretsKey, type SecretBox } from '../../crypto/secrets';
import type { Db } from '../../db/kysely';
import { createEscalationRunner, type EscalationRunner } from '../escalation/runner';
import { recordedTarget } from '../integrations/targets';
import { type AlertCore, createAlertCore } from './book';
import { createDbOutbox } from './outbox';
import { collectorRules, rulesVersion } from './thresholds';

/** How often collectors ask whether the rules changed. */
export const DEFAULT_RULES_REFRESH_MS = 2_000;
/** How often acknowledgements that ran out are ended. */
const ACK_EXPIRY_MS = 30_000;

export interface AlertServiceOptions {
  db: Db;
  bus: Bus;
  logger: Logger;
  config: Pick<ApiConfig, 'PUBLIC_URL' | 'PORT' | 'SMTP_URL' | 'SMTP_FROM' | 'SECRETS_KEY' | 'DATA_DIR'> &
    NotifyEnv;
  /**
   * The channels to send on; default: e-mail when SMTP_URL is set, Telegram and WhatsApp when
   * their tokens are, Slack and Google Chat always (webhooks need no token).
   */
  notifiers?: Notifier[];
  /** Back-off and time-outs of the notification queue. */
  queueOptions?: Omit<NotificationQueueOptions, 'notifiers' | 'outbox' | 'logger'>;
  /** Told to collectors: how often to ask for rule changes. */
  refreshMs?: number;
  now?: () => number;
}

/**
 * The running alert side of the api: {@link AlertCore} plus what a process needs around it. It
 * answers the collectors on worker `alerts` (`alert_rules`: the enabled thresholds of every
 * customer and, for a starting collector, the states to restore; `alert_transitions`: level
 * changes to record), sends notifications through the queue (outbox in the metadata DB, retries
 * with back-off, each notification once), and ends acknowledgements that ran out.
 */
export interface AlertService extends AlertCore {
  readonly queue: NotificationQueue | null;
  /** Sends the later steps of escalation chains (started with the service). */
  readonly escalation: EscalationRunner;
  /** Called by the threshold calls: collectors in this process are told at once, others within the refresh. */
  rulesChanged(): void;
  /** Runs `listener` on every rule change made through this process; returns the unsubscribe. */
  onRulesChanged(listener: () => void): () => void;
  stop(): Promise<void>;
}

/** A success is written to the integration row at most this often per address (a storm sends many). */
const SENT_RECORD_MS = 60_000;

/**
 * A notifier that records each delivery's outcome on the recipient's integration row, found by
 * its channel and target (a webhook by its masked URL, see `recordedTarget`).
 */
function tracked(notifier: Notifier, db: Db, logger: Logger): Notifier {
  /** Per `tenant/address`: unix ms of the success last written, 0 after a failure. */
  const recorded = new Map<string, number>();
  async function mark(n: Notification, fields: { last_sent_at?: number; last_error: string | null }) {
    const customerId = Number(n.tenant);
    if (!Number.isSafeInteger(customerId)) return;
    const target = recordedTarget(n.recipient);
    const key = `${customerId}/${n.recipient.channel}/${target}`;
    const now = Date.now();
    if (fields.last_error === null && now - (recorded.get(key) ?? 0) < SENT_RECORD_MS) return;
    recorded.set(key, fields.last_error === null ? now : 0);
    try {
      await db
        .updateTable('notification_integrations')
        .set(fields)
        .where('customer_id', '=', customerId)
        .where('channel', '=', n.recipient.channel)
        .where('target', '=', target)
        .execute();
    } catch (err) {
      recorded.delete(key);
      logger.warn({ err, id: n.id }, 'integration delivery state not recorded');
    }
  }
  return {
    channel: notifier.channel,
    async send(n, signal) {
      try {
        await notifier.send(n, signal);
      } catch (err) {
        await mark(n, { last_error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
      await mark(n, { last_sent_at: Math.floor(Date.now() / 1000), last_error: null });
    },
    close: () => notifier.close(),
  };
}

export async function startAlertService(options: AlertServiceOptions): Promise<AlertService> {
  const { db, bus, logger, config } = options;
  const refreshMs = options.refreshMs ?? DEFAULT_RULES_REFRESH_MS;
  const base =
    options.notifiers ?? createNotifiers(notifierSettingsFromEnv(config), logger.child({ name: 'notify' }));
  let box: SecretBox | undefined;
  // Made on first use: only a Slack or Google Chat webhook integration needs the key.
  const secrets = () => {
    box ??= createSecretBox(loadOrCreateSecretsKey(config.SECRETS_KEY, config.DATA_DIR));
    return box;
  };
  if (base.length === 0) {
    logger.warn(
      'no notification channel configured (set SMTP_URL for e-mail): alerts are recorded, not sent',
    );
  }
  const queue =
    base.length > 0
      ? createNotificationQueue({
          ...options.queueOptions,
          notifiers: base.map((n) => tracked(n, db, logger)),
          outbox: createDbOutbox(db, logger),
          logger: logger.child({ name: 'notify' }),
        })
      : null;
  const core = createAlertCore({
    db,
    bus,
    logger,
    queue,
    secrets,
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    ...(options.now ? { now: options.now } : {}),
  });
  const listeners = new Set<() => void>();
  const escalation = createEscalationRunner({
    db,
    logger: logger.child({ name: 'escalation' }),
    queue,
    secrets,
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    ...(options.now ? { now: options.now } : {}),
  });

  async function rules(params: AlertRulesParams): Promise<AlertRulesData> {
    const version = await rulesVersion(db);
    const out: AlertRulesData = { version, refresh_ms: refreshMs };
    if (params.version !== version) out.rules = await collectorRules(db);
    if (params.with_states) out.states = await core.restoreStates();
    return out;
  }

  async function handle(request: CommandRequest): Promise<CommandReply> {
    const reply = (data: unknown): CommandReply => ({
      v: 1,
      id: request.id,
      status: 'ok',
      data,
      ts: Date.now(),
    });
    try {
      if (request.command === 'alert_rules') {
        return reply(await rules(AlertRulesParams.parse(request.params)));
      }
      if (request.command === 'alert_transitions') {
        const params = AlertTransitionsParams.parse(request.params);
        const applied = await core.applyTransitions(params);
        const data: AlertTransitionsData = { applied, version: await rulesVersion(db) };
        return reply(data);
      }
    } catch (err) {
      logger.error({ err, command: request.command }, 'alert command failed');
      return {
        v: 1,
        id: request.id,
        status: 'error',
        message: err instanceof Error ? err.message : String(err),
        ts: Date.now(),
      };
    }
    return {
      v: 1,
      id: request.id,
      status: 'error',
      message: `the alert service does not serve ${request.command}`,
      ts: Date.now(),
    };
  }

  const subscription: Subscription = await bus.serveCommands(ALERTS_WORKER, handle);
  const expiry = setInterval(() => {
    core.expireAcknowledgements().catch((err) => logger.warn({ err }, 'acknowledgements not expired'));
  }, ACK_EXPIRY_MS);
  expiry.unref();
  escalation.start();

  return {
    ...core,
    queue,
    escalation,
    rulesChanged() {
      core.thresholdsChanged();
      for (const l of listeners) {
        try {
          l();
        } catch (err) {
          logger.warn({ err }, 'rule change listener failed');
        }
      }
    },
    onRulesChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      clearInterval(expiry);
      await escalation.stop();
      await subscription.unsubscribe();
      await queue?.close();
      await Promise.allSettled(base.map((n) => n.close()));
    },
  };
}

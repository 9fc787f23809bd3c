import { alertLink, alertNotification, type NotificationQueue } from '@flightdeck/collector/notify';
import { alertTypeTitle, type EscalationChain, USER_LOCALES, type UserLocale } from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { SecretBox } from '../../crypto/secrets';
import type { Db } from '../../db/kysely';
import { deliveryRecipient } from '../integrations/targets';
import { maintenanceLookup } from '../maintenance/lookup';
import { parseChain } from './routes';

/** How often the runner looks for steps that are due. */
export const ESCALATION_TICK_MS = 15_000;

const STILL_OPEN: Record<UserLocale, (minutes: number, step: number) => string> = {
  en: (m, s) => `not acknowledged after ${m} min (escalation step ${s})`,
  es: (m, s) => `sin reconocer tras ${m} min (paso de escalado ${s})`,
  pt: (m, s) => `não reconhecido após ${m} min (etapa de escalonamento ${s})`,
};

const localeOf = (v: string): UserLocale =>
  (USER_LOCALES as readonly string[]).includes(v) ? (v as UserLocale) : 'en';

export interface EscalationRunnerOptions {
  db: Db;
  logger: Logger;
  /** Where the steps' notifications go; null: nothing is sent and no step is recorded. */
  queue: NotificationQueue | null;
  /** Opens the sealed webhook URLs of Slack and Google Chat integrations. */
  secrets: () => SecretBox;
  /** Base of the console links in notifications. */
  publicUrl: string;
  now?: () => number;
}

/**
 * Sends the later steps of escalation chains. An open alert that was told when it opened, was never
 * acknowledged and is not inside a maintenance window gets each step of its chain (the customer's
 * chain for its level, else the default one) once `delay_minutes` have passed since it opened. The
 * index of the last step sent is kept per alert occurrence in `alert_escalations`, and each
 * notification's id names the occurrence and the step, so a restart neither resends nor skips one.
 * Acknowledging or resolving the alert ends its chain.
 */
export interface EscalationRunner {
  /** Sends the steps due at `atMs` (default now); returns how many steps were sent. */
  tick(atMs?: number): Promise<number>;
  /** Runs `tick` every `intervalMs` until `stop`. */
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export function createEscalationRunner(options: EscalationRunnerOptions): EscalationRunner {
  const { db, logger, queue } = options;
  const now = options.now ?? Date.now;
  const lookup = maintenanceLookup(db);
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<number> | null = null;

  async function chains() {
    const rows = await db.selectFrom('escalation_chains').selectAll().execute();
    const out = new Map<number, Partial<Record<EscalationChain['severity'], EscalationChain>>>();
    for (const row of rows) {
      const chain = parseChain(row);
      if (typeof chain === 'string') {
        logger.error(
          { tenant: row.customer_id, severity: row.severity, reason: chain },
          'escalation chain skipped',
        );
        continue;
      }
      const byLevel = out.get(row.customer_id) ?? {};
      byLevel[chain.severity] = chain;
      out.set(row.customer_id, byLevel);
    }
    return out;
  }

  /** The enabled integrations a step names, each once, with their users' locales. */
  async function recipientsOf(customerId: number, step: EscalationChain['steps'][number]) {
    const userIds = step.recipients.flatMap((r) => (r.kind === 'user' ? [r.user_id] : []));
    const integrationIds = step.recipients.flatMap((r) =>
      r.kind === 'integration' ? [r.integration_id] : [],
    );
    const rows = await db
      .selectFrom('notification_integrations as n')
      .innerJoin('users as u', (j) =>
        j.onRef('u.id', '=', 'n.user_id').onRef('u.customer_id', '=', 'n.customer_id'),
      )
      .select([
        'n.id',
        'n.customer_id',
        'n.user_id',
        'n.channel',
        'n.target',
        'n.secret',
        'n.detail',
        'u.locale',
      ])
      .where('n.customer_id', '=', customerId)
      .where('n.status', '=', 'enabled')
      .where('u.status', '=', 'ACTIVE')
      .where((eb) =>
        eb.or([
          ...(userIds.length ? [eb('n.user_id', 'in', userIds)] : []),
          ...(integrationIds.length ? [eb('n.id', 'in', integrationIds)] : []),
        ]),
      )
      .orderBy('n.id')
      .execute();
    const out = [];
    for (const r of rows) {
      try {
        const recipient = deliveryRecipient(r, options.secrets);
        if (recipient) out.push({ integrationId: r.id, recipient, locale: localeOf(r.locale) });
      } catch (err) {
        logger.error(
          { err, tenant: customerId, channel: r.channel },
          'integration target not readable; skipped',
        );
      }
    }
    return out;
  }

  async function run(at: number): Promise<number> {
    if (!queue) return 0;
    const byCustomer = await chains();
    if (byCustomer.size === 0) return 0;
    const open = await db
      .selectFrom('alerts as a')
      .innerJoin('alert_history as h', 'h.id', 'a.historic_id')
      .leftJoin('alert_escalations as e', 'e.historic_id', 'a.historic_id')
      .leftJoin('servers as s', 's.id', 'a.server_id')
      .select([
        'a.customer_id',
        'a.historic_id',
        'a.server_id',
        'a.service',
        'a.type_id',
        'a.level',
        'a.metric',
        'a.value',
        'a.entered_at_ms',
        'e.step',
        's.name as server_name',
        's.hostname',
      ])
      .where('a.customer_id', 'in', [...byCustomer.keys()])
      .where('a.ack_until', 'is', null)
      .where('h.acknowledged_until', 'is', null)
      .where('h.notified', '=', 1)
      .where('h.quiet', 'is', null)
      .execute();
    let sent = 0;
    for (const alert of open) {
      const levels = byCustomer.get(alert.customer_id)!;
      const chain =
        (alert.level === 'R' || alert.level === 'Y' ? levels[alert.level] : undefined) ?? levels.default;
      if (!chain) continue;
      const last = alert.step ?? 0;
      const elapsed = at - Number(alert.entered_at_ms);
      let due = last;
      for (let i = last + 1; i < chain.steps.length; i++) {
        if (chain.steps[i]!.delay_minutes * 60_000 <= elapsed) due = i;
      }
      if (due <= last) continue;
      try {
        const window = await lookup.activeWindowFor(alert.customer_id, alert.server_id, alert.service, at);
        if (window) continue;
      } catch (err) {
        logger.error(
          { err, tenant: alert.customer_id },
          'maintenance windows could not be read; escalation waits',
        );
        continue;
      }
      const serverName = alert.server_name ?? alert.hostname ?? String(alert.server_id);
      try {
        for (let i = last + 1; i <= due; i++) {
          const step = chain.steps[i]!;
          for (const r of await recipientsOf(alert.customer_id, step)) {
            const id = `${alert.historic_id}:escalation:${i}:${r.integrationId}`;
            // A channel that cannot take it (none configured) must not hold back the other recipients.
            try {
              await queue.enqueue(
                alertNotification({
                  id,
                  tenant: String(alert.customer_id),
                  recipient: r.recipient,
                  locale: r.locale,
                  alert: {
                    event: 'new',
                    serverName,
                    alertType: `${alertTypeTitle(alert.type_id, r.locale)}, ${STILL_OPEN[r.locale](step.delay_minutes, i + 1)}`,
                    status: alert.level,
                    link: alertLink(options.publicUrl, alert.server_id, alert.service || undefined),
                    at: Number(alert.entered_at_ms),
                  },
                }),
              );
            } catch (err) {
              logger.error({ err, id }, 'escalation notification not queued');
            }
          }
          sent++;
        }
        const values = { step: due, updated_at_ms: at };
        await db
          .insertInto('alert_escalations')
          .values({ historic_id: alert.historic_id, customer_id: alert.customer_id, ...values })
          .onConflict((oc) => oc.column('historic_id').doUpdateSet(values))
          .execute();
      } catch (err) {
        logger.error(
          { err, tenant: alert.customer_id, historic: alert.historic_id },
          'escalation step not recorded',
        );
      }
    }
    return sent;
  }

  function tick(atMs?: number): Promise<number> {
    // One pass at a time: a slow pass and the next timer must not both send a step.
    const previous = running ?? Promise.resolve(0);
    const next = previous.catch(() => 0).then(() => run(atMs ?? now()));
    running = next;
    return next;
  }

  return {
    tick,
    start(intervalMs = ESCALATION_TICK_MS) {
      if (timer) return;
      timer = setInterval(() => {
        tick().catch((err) => logger.warn({ err }, 'escalation pass failed'));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}

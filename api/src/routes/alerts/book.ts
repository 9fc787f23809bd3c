import { type AlertChange, createAlertBook, type OpenAlert, type ThresholdRule } from '@flightdeck/collector';
import type { Bus } from '@flightdeck/collector/bus';
import {
  alertLink,
  alertNotification,
  type NotificationQueue,
  type Recipient as NotifyRecipient,
} from '@flightdeck/collector/notify';
import {
  type AcknowledgeHours,
  type AlertEvent,
  type AlertItem,
  type AlertTransitionsParams,
  alertTypeTitle,
  type CompareOperator,
  USER_LOCALES,
  type UserLocale,
  type WireRuleState,
  type WireRuleTransition,
} from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { SecretBox } from '../../crypto/secrets';
import type { Db } from '../../db/kysely';
import type { AlertLevel, AlertRow, AlertThresholdRow } from '../../db/types';
import { ApiError } from '../../errors';
import { deliveryRecipient } from '../integrations/targets';
import { maintenanceLookup } from '../maintenance/lookup';
import { holdLookup, UNREACHABLE_TYPE_ID } from './dependencies';
import { parseDynamic, toAlertItem } from './queries';
import { alertText, formatMetricValue, labelVars } from './text';

/** Why an open alert resolves without a sample saying so (history `quiet`). */
export type ResolveReason = 'threshold_disabled' | 'threshold_removed' | 'threshold_changed' | 'overridden';

export interface AlertCoreOptions {
  db: Db;
  bus: Pick<Bus, 'publishEvent'>;
  logger: Logger;
  /** Base of the console links in notifications. */
  publicUrl: string;
  /** Where notifications go; null: none are sent (no channel configured). */
  queue: NotificationQueue | null;
  /** Opens the sealed webhook URLs of Slack and Google Chat integrations; absent: those are skipped. */
  secrets?: () => SecretBox;
  now?: () => number;
}

/**
 * The api's side of the alert lifecycle: the collectors' level changes become open alerts and
 * history rows (collector/alerts/lifecycle decides new, updated, recurring, resolved and whether
 * to tell), each change is published on `fd.events.<tenant>` and, when it is to be told, queued
 * for every enabled integration of the customer's users. Changes are applied one at a time in this
 * process, each in its own transaction; a change replayed (a collector restarting, a message
 * delivered twice) finds the alert already at its level and does nothing.
 */
export interface AlertCore {
  applyTransitions(params: AlertTransitionsParams): Promise<number>;
  acknowledge(input: {
    customerId: number;
    userId: number;
    userName: string;
    historicId: number;
    hours: AcknowledgeHours;
    comment: string | null;
  }): Promise<AlertItem>;
  /** Resolves the open alerts of thresholds (on one host, or all); not told, recorded with `reason`. */
  resolveOpen(
    customerId: number,
    thresholdIds: readonly number[],
    reason: ResolveReason,
    hostKey?: string,
  ): Promise<number>;
  /** Ends acknowledgements that ran out; each is published as `updated`. */
  expireAcknowledgements(): Promise<number>;
  /** The states a starting collector restores: open alerts' levels and running durations. */
  restoreStates(): Promise<WireRuleState[]>;
  /** Forgets cached thresholds (a threshold changed in this process). */
  thresholdsChanged(): void;
  /** Forgets a customer's cached recipients (an integration changed in this process). */
  recipientsChanged(customerId: number): void;
}

const THRESHOLD_TTL_MS = 2_000;
const SERVER_TTL_MS = 60_000;
const RECIPIENTS_TTL_MS = 5_000;

interface Recipient {
  userId: number;
  recipient: NotifyRecipient;
  locale: UserLocale;
}

const LEVEL_RANK = { G: 0, Y: 1, R: 2 } as const;

function toRule(t: AlertThresholdRow, host: string): ThresholdRule {
  return {
    id: t.id,
    tenant: String(t.customer_id),
    host,
    service: t.service === '' ? null : t.service,
    metric: t.metric,
    labels: null,
    operator: t.operator as CompareOperator,
    warning: t.yellow,
    critical: t.red,
    recovery: t.recovery,
    forMs: t.for_s * 1000,
  };
}

function toOpen(row: AlertRow): OpenAlert {
  return {
    historicId: row.historic_id,
    ruleId: row.threshold_id,
    tenant: String(row.customer_id),
    host: row.host_key,
    service: row.service,
    metric: row.metric,
    labels: row.labels,
    level: row.level,
    enteredAt: row.entered_at_ms,
    changedAt: row.changed_at_ms,
    value: row.value,
    ackUntil: row.ack_until === null ? null : row.ack_until * 1000,
    ackBy: row.ack_by,
    ackComment: row.ack_comment,
    suppressedBy: null,
    recurring: row.recurring === 1,
  };
}

/**
 * What a notification says the alert is about: the type's message without its leading
 * "{server}: " (the notification names the server itself), or for a resolution just the type's
 * title, since the levels that were crossed may have changed since.
 */
function summaryText(
  event: AlertChange['event'],
  row: AlertRow,
  serverName: string,
  threshold: number | null,
  locale: UserLocale,
): string {
  const labels = labelVars(row.labels);
  const where = labels.mount ?? labels.interface ?? labels.device ?? labels.database ?? '';
  if (event === 'resolved')
    return where ? `${alertTypeTitle(row.type_id, locale)} ${where}` : alertTypeTitle(row.type_id, locale);
  const text = alertText(
    {
      typeId: row.type_id,
      serverName,
      service: row.service,
      metric: row.metric,
      labels: row.labels,
      value: row.value,
      threshold,
      dynamic: parseDynamic(row.dynamic),
    },
    locale,
  );
  return text.startsWith(`${serverName}: `) ? text.slice(serverName.length + 2) : text;
}

const localeOf = (v: string): UserLocale =>
  (USER_LOCALES as readonly string[]).includes(v) ? (v as UserLocale) : 'en';

export function createAlertCore(options: AlertCoreOptions): AlertCore {
  const { db, bus, logger, queue } = options;
  const now = options.now ?? Date.now;
  const holds = holdLookup(db, logger);
  const thresholds = new Map<number, { row: AlertThresholdRow | undefined; at: number }>();
  const servers = new Map<string, { server: { id: number; name: string } | undefined; at: number }>();
  const recipients = new Map<number, { list: Recipient[]; at: number }>();
  const secretsOr = () => {
    if (!options.secrets) throw new Error('no secrets key to open a webhook with');
    return options.secrets();
  };

  // One change at a time in this process: the lifecycle reads the alert, then writes it.
  let chain: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = chain.then(fn, fn);
    chain = run.catch(() => {});
    return run;
  }

  async function thresholdOf(customerId: number, id: number): Promise<AlertThresholdRow | undefined> {
    const cached = thresholds.get(id);
    if (cached && now() - cached.at < THRESHOLD_TTL_MS) {
      return cached.row?.customer_id === customerId ? cached.row : undefined;
    }
    const row = await db.selectFrom('alert_thresholds').selectAll().where('id', '=', id).executeTakeFirst();
    thresholds.set(id, { row, at: now() });
    return row?.customer_id === customerId ? row : undefined;
  }

  async function serverOf(customerId: number, hostKey: string) {
    const key = `${customerId}\0${hostKey}`;
    const cached = servers.get(key);
    if (cached?.server && now() - cached.at < SERVER_TTL_MS) return cached.server;
    const row = await db
      .selectFrom('servers')
      .select(['id', 'name', 'hostname'])
      .where('customer_id', '=', customerId)
      .where('host_key', '=', hostKey)
      .executeTakeFirst();
    const server = row ? { id: row.id, name: row.name ?? row.hostname } : undefined;
    servers.set(key, { server, at: now() });
    return server;
  }

  async function recipientsOf(customerId: number): Promise<Recipient[]> {
    const cached = recipients.get(customerId);
    if (cached && now() - cached.at < RECIPIENTS_TTL_MS) return cached.list;
    const rows = await db
      .selectFrom('notification_integrations as n')
      .innerJoin('users as u', (j) =>
        j.onRef('u.id', '=', 'n.user_id').onRef('u.customer_id', '=', 'n.customer_id'),
      )
      .select(['n.customer_id', 'n.user_id', 'n.channel', 'n.target', 'n.secret', 'n.detail', 'u.locale'])
      .where('n.customer_id', '=', customerId)
      .where('n.status', '=', 'enabled')
      .where('u.status', '=', 'ACTIVE')
      .orderBy('n.user_id')
      .execute();
    const list: Recipient[] = [];
    for (const r of rows) {
      try {
        const recipient = deliveryRecipient(r, secretsOr);
        if (recipient) list.push({ userId: r.user_id, recipient, locale: localeOf(r.locale) });
      } catch (err) {
        logger.error(
          { err, tenant: customerId, channel: r.channel },
          'integration target not readable; skipped',
        );
      }
    }
    recipients.set(customerId, { list, at: now() });
    return list;
  }

  async function publish(event: AlertEvent) {
    try {
      await bus.publishEvent(event);
    } catch (err) {
      logger.warn({ err, tenant: event.tenant, event: event.event }, 'alert event not published');
    }
  }

  function eventOf(
    customerId: number,
    event: AlertEvent['event'],
    row: AlertRow,
    exitMs?: number,
  ): AlertEvent {
    return {
      v: 1,
      kind: 'alert',
      tenant: String(customerId),
      event,
      alert: {
        id: row.id,
        historic_id: row.historic_id,
        server_id: row.server_id,
        ...(row.service !== '' ? { service: row.service } : {}),
        type_id: row.type_id,
        status: exitMs !== undefined ? 'G' : row.level,
        text: row.text,
        date_enter: Math.floor(row.entered_at_ms / 1000),
        ...(exitMs !== undefined ? { date_exit: Math.floor(exitMs / 1000) } : {}),
      },
      ts: now(),
    };
  }

  async function notify(
    customerId: number,
    change: AlertChange,
    row: AlertRow,
    serverName: string,
    threshold: number | null,
  ) {
    if (!queue) return;
    let list: Recipient[];
    try {
      list = await recipientsOf(customerId);
    } catch (err) {
      logger.error(
        { err, tenant: customerId },
        'alert recipients could not be read; notification not queued',
      );
      return;
    }
    for (const r of list) {
      const id = `${row.historic_id}:${change.event}:${row.change_seq}:${r.userId}:${r.recipient.channel}`;
      try {
        await queue.enqueue(
          alertNotification({
            id,
            tenant: String(customerId),
            recipient: r.recipient,
            locale: r.locale,
            alert: {
              event: change.event,
              serverName,
              alertType: summaryText(change.event, row, serverName, threshold, r.locale),
              status: change.event === 'resolved' ? 'G' : row.level,
              value: formatMetricValue(row.metric, row.value),
              link: alertLink(options.publicUrl, row.server_id, row.service || undefined),
              at: change.exitAt ?? row.changed_at_ms,
            },
          }),
        );
      } catch (err) {
        logger.error({ err, id }, 'alert notification not queued');
      }
    }
  }

  /** The approved maintenance window covering a change; one that cannot be read counts as none. */
  async function windowAt(customerId: number, serverId: number, service: string, atMs: number) {
    try {
      return await maintenanceLookup(db).activeWindowFor(customerId, serverId, service, atMs);
    } catch (err) {
      logger.error(
        { err, tenant: customerId },
        'maintenance windows could not be read; the alert change is told',
      );
      return null;
    }
  }

  /** Applies one transition; false when it changed nothing. */
  async function applyOne(t: WireRuleTransition): Promise<boolean> {
    const customerId = Number(t.tenant);
    if (!Number.isSafeInteger(customerId)) return false;
    const threshold = await thresholdOf(customerId, t.rule_id);
    if (threshold?.enabled !== 1) return false;
    const server = await serverOf(customerId, t.host);
    if (!server) {
      logger.warn({ tenant: t.tenant, host: t.host }, 'alert transition for a host with no server; left out');
      return false;
    }
    const current = await db
      .selectFrom('alerts')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('threshold_id', '=', t.rule_id)
      .where('host_key', '=', t.host)
      .where('service', '=', t.service)
      .where('labels', '=', t.labels)
      .executeTakeFirst();
    if (t.to === 'G' ? !current : current?.level === t.to) return false;
    // A muted type or target raises nothing new; an unreachable server holds its alerts back (dependencies.ts).
    const hold = await holds.holdFor(
      customerId,
      server.id,
      t.service,
      threshold.type_id,
      Math.floor(t.ts / 1000),
    );
    if (hold?.kind === 'muted' && !current) return false;

    let lastResolved: number | undefined;
    if (!current) {
      const last = await db
        .selectFrom('alert_history')
        .select('date_exit')
        .where('customer_id', '=', customerId)
        .where('threshold_id', '=', t.rule_id)
        .where('host_key', '=', t.host)
        .where('service', '=', t.service)
        .where('labels', '=', t.labels)
        .where('date_exit', 'is not', null)
        .orderBy('date_exit', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (last?.date_exit != null) lastResolved = last.date_exit * 1000;
    }
    const seriesKey = `${t.rule_id}\0${t.host}\0${t.service}\0${t.labels}`;
    const book = createAlertBook({
      state: {
        open: current ? [toOpen(current)] : [],
        lastResolved: lastResolved !== undefined ? { [seriesKey]: lastResolved } : {},
        nextHistoricId: 1,
      },
    });
    const window = await windowAt(customerId, server.id, t.service, t.ts);
    const change = book.apply({ ...t, rule: toRule(threshold, t.host) }, { inMaintenance: window !== null });
    if (!change) return false;
    // The window that kept this change quiet, recorded on the history row (the first reason wins).
    const inWindow = change.quiet === 'maintenance' && window ? window : null;
    let tell = change.notify;
    const held =
      hold && change.event !== 'resolved' ? (hold.kind === 'muted' ? 'muted' : 'dependency') : null;
    if (held) tell = false;

    const level: AlertLevel = change.event === 'resolved' ? (current?.level ?? 'Y') : (t.to as AlertLevel);
    const crossed = level === 'R' ? (threshold.red ?? threshold.yellow) : (threshold.yellow ?? threshold.red);
    const text = alertText(
      {
        typeId: threshold.type_id,
        serverName: server.name,
        service: t.service,
        metric: t.metric,
        labels: t.labels,
        value: t.value,
        threshold: crossed,
        dynamic: threshold.mode === 'dynamic' ? (t.dynamic ?? null) : null,
      },
      'en',
    );
    const quiet = change.quiet ?? held;
    // Why a dynamic threshold fired, the latest change's; a defined threshold has none.
    const dynamic = threshold.mode === 'dynamic' && t.dynamic ? JSON.stringify(t.dynamic) : null;
    const row = await db.transaction().execute(async (trx): Promise<AlertRow> => {
      if (change.event === 'new' || change.event === 'recurring') {
        const history = await trx
          .insertInto('alert_history')
          .values({
            customer_id: customerId,
            server_id: server.id,
            threshold_id: t.rule_id,
            alert_id: null,
            host_key: t.host,
            service: t.service,
            metric: t.metric,
            labels: t.labels,
            type_id: threshold.type_id,
            level,
            last_level: level,
            event: change.event,
            text,
            value: t.value,
            date_enter: Math.floor(t.ts / 1000),
            date_exit: null,
            acknowledged_until: null,
            ack_by: null,
            ack_user_id: null,
            ack_comment: null,
            notified: tell ? 1 : 0,
            quiet,
            dynamic,
            ...(inWindow ? { maintenance_id: inWindow.id } : {}),
            ...(hold?.kind === 'dependency' ? { parent_id: hold.parentId } : {}),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const alert = await trx
          .insertInto('alerts')
          .values({
            customer_id: customerId,
            server_id: server.id,
            threshold_id: t.rule_id,
            historic_id: history.id,
            host_key: t.host,
            service: t.service,
            metric: t.metric,
            labels: t.labels,
            type_id: threshold.type_id,
            level,
            event: change.event,
            text,
            value: t.value,
            recurring: change.event === 'recurring' ? 1 : 0,
            entered_at_ms: t.ts,
            changed_at_ms: t.ts,
            ack_until: null,
            ack_by: null,
            ack_user_id: null,
            ack_comment: null,
            change_seq: 1,
            dynamic,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('alert_history')
          .set({ alert_id: alert.id })
          .where('id', '=', history.id)
          .execute();
        return alert;
      }
      const open = current!;
      if (inWindow) {
        await trx
          .updateTable('alert_history')
          .set({ quiet: 'maintenance', maintenance_id: inWindow.id })
          .where('id', '=', open.historic_id)
          .where('customer_id', '=', customerId)
          .where('quiet', 'is', null)
          .execute();
      }
      if (change.event === 'resolved') {
        // An alert whose opening a maintenance window kept quiet resolves quietly as well: nothing
        // was told when the window ended with it still open, so there is nothing to close.
        const opened = await trx
          .selectFrom('alert_history')
          .select(['notified', 'quiet'])
          .where('id', '=', open.historic_id)
          .where('customer_id', '=', customerId)
          .executeTakeFirst();
        if (opened?.notified === 0 && opened.quiet === 'maintenance') tell = false;
        // So does one held back by a mute or a dependency and never told since.
        if (opened?.notified === 0 && (opened.quiet === 'muted' || opened.quiet === 'dependency'))
          tell = false;
        await trx.deleteFrom('alerts').where('id', '=', open.id).execute();
        await trx
          .updateTable('alert_history')
          .set({ date_exit: Math.floor(t.ts / 1000), event: 'resolved', value: t.value })
          .where('id', '=', open.historic_id)
          .where('customer_id', '=', customerId)
          .execute();
        return { ...open, value: t.value, changed_at_ms: t.ts, change_seq: open.change_seq + 1 };
      }
      const updated = await trx
        .updateTable('alerts')
        .set({
          level,
          event: 'updated',
          text,
          value: t.value,
          changed_at_ms: t.ts,
          change_seq: open.change_seq + 1,
          ...(dynamic !== null ? { dynamic } : {}),
        })
        .where('id', '=', open.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('alert_history')
        .set({
          ...(LEVEL_RANK[level] > LEVEL_RANK[open.level] ? { level } : {}),
          last_level: level,
          event: 'updated',
          text,
          value: t.value,
          ...(dynamic !== null ? { dynamic } : {}),
        })
        .where('id', '=', open.historic_id)
        .where('customer_id', '=', customerId)
        .execute();
      return updated;
    });
    await publish(eventOf(customerId, change.event, row, change.event === 'resolved' ? t.ts : undefined));
    if (tell) await notify(customerId, change, row, server.name, crossed);
    if (change.event === 'resolved' && threshold.type_id === UNREACHABLE_TYPE_ID && current) {
      await tellDependents(customerId, current.historic_id, server.name);
    }
    return true;
  }

  /**
   * The server is reachable again: the alerts that opened while it was not and are still open are
   * real problems of their own, so each is told now as it stands. Those that resolved meanwhile
   * stay untold.
   */
  async function tellDependents(customerId: number, parentId: number, serverName: string) {
    const open = await db
      .selectFrom('alerts as a')
      .innerJoin('alert_history as h', (j) =>
        j.onRef('h.id', '=', 'a.historic_id').onRef('h.customer_id', '=', 'a.customer_id'),
      )
      .selectAll('a')
      .where('a.customer_id', '=', customerId)
      .where('h.parent_id', '=', parentId)
      .where('h.notified', '=', 0)
      .execute();
    for (const row of open) {
      await db.updateTable('alert_history').set({ notified: 1 }).where('id', '=', row.historic_id).execute();
      const th = await thresholdOf(customerId, row.threshold_id);
      const crossed = th ? (row.level === 'R' ? (th.red ?? th.yellow) : (th.yellow ?? th.red)) : null;
      const event = row.recurring === 1 ? 'recurring' : 'new';
      await notify(customerId, { event, alert: toOpen(row), notify: true }, row, serverName, crossed);
    }
  }

  async function saveStates(states: readonly WireRuleState[]) {
    for (const s of states) {
      const customerId = Number(s.tenant);
      if (!Number.isSafeInteger(customerId) || !(await thresholdOf(customerId, s.rule_id))) continue;
      const key = { threshold_id: s.rule_id, host_key: s.host, service: s.service, labels: s.labels };
      if (s.pending === 'G') {
        await db
          .deleteFrom('alert_rule_states')
          .where('customer_id', '=', customerId)
          .where('threshold_id', '=', s.rule_id)
          .where('host_key', '=', s.host)
          .where('service', '=', s.service)
          .where('labels', '=', s.labels)
          .execute();
        continue;
      }
      const values = {
        level: s.level,
        pending: s.pending,
        pending_since_ms: s.pending_since,
        updated_at_ms: now(),
      };
      await db
        .insertInto('alert_rule_states')
        .values({ customer_id: customerId, ...key, ...values })
        .onConflict((oc) => oc.columns(['threshold_id', 'host_key', 'service', 'labels']).doUpdateSet(values))
        .execute();
    }
  }

  return {
    applyTransitions(params) {
      return exclusive(async () => {
        let applied = 0;
        for (const t of params.transitions) {
          try {
            if (await applyOne(t)) applied++;
          } catch (err) {
            logger.error(
              { err, rule: t.rule_id, tenant: t.tenant, host: t.host, to: t.to },
              'alert transition not recorded',
            );
          }
        }
        if (params.states?.length) {
          try {
            await saveStates(params.states);
          } catch (err) {
            logger.error({ err }, 'alert rule states not saved');
          }
        }
        return applied;
      });
    },

    acknowledge({ customerId, userId, userName, historicId, hours, comment }) {
      return exclusive(async () => {
        const current = await db
          .selectFrom('alerts')
          .selectAll()
          .where('customer_id', '=', customerId)
          .where('historic_id', '=', historicId)
          .executeTakeFirst();
        if (!current)
          throw ApiError.of('not_found', 'This alert is not open any more, or could not be found.');
        const book = createAlertBook({
          state: { open: [toOpen(current)], lastResolved: {}, nextHistoricId: 1 },
        });
        const change = book.acknowledge(historicId, hours, userName, comment, now());
        if (!change)
          throw ApiError.of('not_found', 'This alert is not open any more, or could not be found.');
        const ackUntil = Math.floor(change.alert.ackUntil! / 1000);
        const ack = { ack_until: ackUntil, ack_by: userName, ack_user_id: userId, ack_comment: comment };
        const row = await db.transaction().execute(async (trx) => {
          const updated = await trx
            .updateTable('alerts')
            .set({ ...ack, event: 'acknowledged', change_seq: current.change_seq + 1 })
            .where('id', '=', current.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx
            .updateTable('alert_history')
            .set({
              acknowledged_until: ackUntil,
              ack_by: userName,
              ack_user_id: userId,
              ack_comment: comment,
              event: 'acknowledged',
              // The first acknowledgement is what the mean time to acknowledge measures to.
              acknowledged_at: (eb) => eb.fn.coalesce('acknowledged_at', eb.val(Math.floor(now() / 1000))),
            })
            .where('id', '=', historicId)
            .where('customer_id', '=', customerId)
            .execute();
          return updated;
        });
        await publish(eventOf(customerId, 'acknowledged', row));
        return toAlertItem(row, Math.floor(now() / 1000));
      });
    },

    resolveOpen(customerId, thresholdIds, reason, hostKey) {
      if (thresholdIds.length === 0) return Promise.resolve(0);
      return exclusive(async () => {
        let q = db
          .selectFrom('alerts')
          .selectAll()
          .where('customer_id', '=', customerId)
          .where('threshold_id', 'in', [...thresholdIds]);
        if (hostKey !== undefined) q = q.where('host_key', '=', hostKey);
        const open = await q.execute();
        const at = now();
        for (const row of open) {
          await db.transaction().execute(async (trx) => {
            await trx.deleteFrom('alerts').where('id', '=', row.id).execute();
            await trx
              .updateTable('alert_history')
              .set({ date_exit: Math.floor(at / 1000), event: 'resolved', quiet: reason })
              .where('id', '=', row.historic_id)
              .where('customer_id', '=', customerId)
              .execute();
          });
          await publish(eventOf(customerId, 'resolved', row, at));
        }
        await db
          .deleteFrom('alert_rule_states')
          .where('customer_id', '=', customerId)
          .where('threshold_id', 'in', [...thresholdIds])
          .$if(hostKey !== undefined, (d) => d.where('host_key', '=', hostKey!))
          .execute();
        return open.length;
      });
    },

    expireAcknowledgements() {
      return exclusive(async () => {
        const nowS = Math.floor(now() / 1000);
        const expired = await db
          .selectFrom('alerts')
          .selectAll()
          .where('ack_until', 'is not', null)
          .where('ack_until', '<=', nowS)
          .execute();
        for (const row of expired) {
          const updated = await db
            .updateTable('alerts')
            .set({ ack_until: null, ack_by: null, ack_user_id: null, ack_comment: null, event: 'updated' })
            .where('id', '=', row.id)
            .where('customer_id', '=', row.customer_id)
            .returningAll()
            .executeTakeFirst();
          if (updated) await publish(eventOf(row.customer_id, 'updated', updated));
        }
        return expired.length;
      });
    },

    async restoreStates() {
      const open = await db
        .selectFrom('alerts')
        .select(['customer_id', 'threshold_id', 'host_key', 'service', 'labels', 'level'])
        .execute();
      const saved = await db.selectFrom('alert_rule_states').selectAll().execute();
      const out = new Map<string, WireRuleState>();
      for (const a of open) {
        out.set(`${a.threshold_id}\0${a.host_key}\0${a.service}\0${a.labels}`, {
          rule_id: a.threshold_id,
          tenant: String(a.customer_id),
          host: a.host_key,
          service: a.service,
          labels: a.labels,
          level: a.level,
          pending: 'G',
          pending_since: 0,
        });
      }
      for (const s of saved) {
        const key = `${s.threshold_id}\0${s.host_key}\0${s.service}\0${s.labels}`;
        const level = out.get(key)?.level ?? 'G';
        // A duration is worth resuming only towards a level above the one the series is at.
        if (LEVEL_RANK[s.pending] <= LEVEL_RANK[level]) continue;
        out.set(key, {
          rule_id: s.threshold_id,
          tenant: String(s.customer_id),
          host: s.host_key,
          service: s.service,
          labels: s.labels,
          level,
          pending: s.pending,
          pending_since: s.pending_since_ms,
        });
      }
      return [...out.values()];
    },

    thresholdsChanged() {
      thresholds.clear();
    },

    recipientsChanged(customerId) {
      recipients.delete(customerId);
    },
  };
}

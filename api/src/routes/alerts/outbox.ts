import {
  emptyCounts,
  NOTIFY_CHANNELS,
  Notification,
  type NotificationOutbox,
  type NotifyChannel,
  type OutboxItem,
  type OutboxRecord,
} from '@flightdeck/collector/notify';
import { type Selectable, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../db/kysely';
import type { NotificationOutboxTable } from '../../db/types';

type Row = Selectable<NotificationOutboxTable>;

/**
 * The notification queue's outbox in the metadata DB (`notification_outbox`, migration 0008), so
 * pending notifications survive a restart on either engine and sit beside the alerts they are
 * about. Each item belongs to the customer named by its notification's tenant. One api process
 * sends them: two processes reading the same outbox would both send an item.
 */
export function createDbOutbox(db: Db, logger: Logger): NotificationOutbox {
  /** A row as an item; a payload that no longer parses gives a reason instead. */
  function itemOf(row: Row): OutboxRecord | string {
    let payload: unknown;
    try {
      payload = JSON.parse(row.payload);
    } catch {
      return 'the stored notification is not JSON';
    }
    const parsed = Notification.safeParse(payload);
    if (!parsed.success) return `the stored notification is not valid: ${parsed.error.issues[0]?.message}`;
    return {
      id: row.notification_id,
      channel: row.channel as NotifyChannel,
      recipientKey: row.recipient_key,
      notification: parsed.data,
      enqueuedAt: Number(row.enqueued_at_ms),
      attempts: row.attempts,
      nextAttemptAt: Number(row.next_at_ms),
      lastError: row.last_error,
      state: row.state,
      doneAt: row.done_at_ms === null ? null : Number(row.done_at_ms),
    };
  }

  // Times are whole milliseconds in bigint columns; the queue's back-off gives fractions.
  const pending = (id: string) =>
    db.updateTable('notification_outbox').where('notification_id', '=', id).where('state', '=', 'pending');

  return {
    async add(item) {
      const customerId = Number(item.notification.tenant);
      if (!Number.isSafeInteger(customerId)) {
        throw new Error(`notification ${item.id}: tenant "${item.notification.tenant}" is not a customer id`);
      }
      const inserted = await db
        .insertInto('notification_outbox')
        .values({
          customer_id: customerId,
          notification_id: item.id,
          channel: item.channel,
          recipient_key: item.recipientKey,
          payload: JSON.stringify(item.notification),
          enqueued_at_ms: Math.round(item.enqueuedAt),
          next_at_ms: Math.round(item.nextAttemptAt),
          done_at_ms: null,
          last_error: null,
        })
        .onConflict((oc) => oc.column('notification_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async heads(channel, limit) {
      const heads = db
        .selectFrom('notification_outbox')
        .select(sql<number>`min(id)`.as('id'))
        .where('channel', '=', channel)
        .where('state', '=', 'pending')
        .groupBy('recipient_key')
        .as('h');
      const rows = await db
        .selectFrom('notification_outbox as o')
        .innerJoin(heads, 'h.id', 'o.id')
        .selectAll('o')
        .orderBy('o.next_at_ms')
        .orderBy('o.id')
        .limit(limit)
        .execute();
      const out: OutboxItem[] = [];
      for (const row of rows) {
        const item = itemOf(row);
        if (typeof item === 'string') {
          logger.warn({ id: row.notification_id, channel, reason: item }, 'notification outbox item dropped');
          await pending(row.notification_id)
            .set({ state: 'failed', done_at_ms: Date.now(), last_error: item })
            .execute();
          continue;
        }
        const { state: _, doneAt: __, ...rest } = item;
        out.push(rest);
      }
      return out;
    },

    async markSent(id, attempts, at) {
      await pending(id)
        .set({ state: 'sent', attempts, done_at_ms: Math.round(at) })
        .execute();
    },
    async markRetry(id, attempts, nextAttemptAt, error) {
      await pending(id)
        .set({ attempts, next_at_ms: Math.ceil(nextAttemptAt), last_error: error })
        .execute();
    },
    async markFailed(id, attempts, at, reason) {
      await pending(id)
        .set({ state: 'failed', attempts, done_at_ms: Math.round(at), last_error: reason })
        .execute();
    },

    async get(id) {
      const row = await db
        .selectFrom('notification_outbox')
        .selectAll()
        .where('notification_id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      const item = itemOf(row);
      return typeof item === 'string' ? undefined : item;
    },

    async counts() {
      const rows = await db
        .selectFrom('notification_outbox')
        .select([
          'channel',
          sql<number>`sum(case when attempts = 0 then 1 else 0 end)`.as('queued'),
          sql<number>`sum(case when attempts > 0 then 1 else 0 end)`.as('retrying'),
        ])
        .where('state', '=', 'pending')
        .groupBy('channel')
        .execute();
      const out = emptyCounts();
      for (const row of rows) {
        if ((NOTIFY_CHANNELS as readonly string[]).includes(row.channel)) {
          out[row.channel as NotifyChannel] = { queued: Number(row.queued), retrying: Number(row.retrying) };
        }
      }
      return out;
    },

    async prune(before) {
      const result = await db
        .deleteFrom('notification_outbox')
        .where('state', '<>', 'pending')
        .where('done_at_ms', '<', Math.floor(before))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async close() {},
  };
}

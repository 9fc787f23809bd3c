import Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { NOTIFY_CHANNELS, Notification, type NotifyChannel } from './contract';
import {
  emptyCounts,
  type NotificationOutbox,
  type OutboxItem,
  type OutboxRecord,
  type OutboxState,
} from './outbox';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS notify_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  channel TEXT NOT NULL,
  recipient_key TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  enqueued_at INTEGER NOT NULL,
  next_at INTEGER NOT NULL,
  done_at INTEGER,
  last_error TEXT
);
CREATE INDEX IF NOT EXISTS notify_outbox_pending
  ON notify_outbox (channel, recipient_key, seq) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS notify_outbox_done ON notify_outbox (done_at) WHERE state <> 'pending';
`;

interface Row {
  id: string;
  channel: string;
  recipient_key: string;
  payload: string;
  state: OutboxState;
  attempts: number;
  enqueued_at: number;
  next_at: number;
  done_at: number | null;
  last_error: string | null;
}

export interface SqliteOutboxOptions {
  /** The SQLite file (created when missing), or `:memory:`. */
  path: string;
  /** Told about stored items that no longer read as a notification (they are marked failed). */
  logger: Logger;
}

/**
 * The outbox in a SQLite file of its own, so pending notifications survive a restart. WAL with
 * synchronous=NORMAL: a committed item survives a process crash (an OS crash may lose the last
 * few, which the alert engine raises again from its persisted state).
 */
export function createSqliteOutbox(options: SqliteOutboxOptions): NotificationOutbox {
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);

  const insert = db.prepare(
    `INSERT OR IGNORE INTO notify_outbox (id, channel, recipient_key, payload, enqueued_at, next_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const heads = db.prepare<[string, string, number], Row>(
    `SELECT o.* FROM notify_outbox o
     JOIN (SELECT MIN(seq) AS seq FROM notify_outbox WHERE channel = ? AND state = 'pending'
           GROUP BY recipient_key) h ON h.seq = o.seq
     WHERE o.channel = ?
     ORDER BY o.next_at, o.seq LIMIT ?`,
  );
  const sent = db.prepare(
    `UPDATE notify_outbox SET state = 'sent', attempts = ?, done_at = ? WHERE id = ? AND state = 'pending'`,
  );
  const retry = db.prepare(
    `UPDATE notify_outbox SET attempts = ?, next_at = ?, last_error = ? WHERE id = ? AND state = 'pending'`,
  );
  const failed = db.prepare(
    `UPDATE notify_outbox SET state = 'failed', attempts = ?, done_at = ?, last_error = ?
     WHERE id = ? AND state = 'pending'`,
  );
  const byId = db.prepare<[string], Row>('SELECT * FROM notify_outbox WHERE id = ?');
  const counts = db.prepare<[], { channel: string; queued: number; retrying: number }>(
    `SELECT channel, SUM(attempts = 0) AS queued, SUM(attempts > 0) AS retrying
     FROM notify_outbox WHERE state = 'pending' GROUP BY channel`,
  );
  const prune = db.prepare(`DELETE FROM notify_outbox WHERE state <> 'pending' AND done_at < ?`);

  /** A row as an item; a payload that no longer parses (written by another version) gives a reason instead. */
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
      id: row.id,
      channel: row.channel as NotifyChannel,
      recipientKey: row.recipient_key,
      notification: parsed.data,
      enqueuedAt: row.enqueued_at,
      attempts: row.attempts,
      nextAttemptAt: row.next_at,
      lastError: row.last_error,
      state: row.state,
      doneAt: row.done_at,
    };
  }

  return {
    async add(item) {
      const info = insert.run(
        item.id,
        item.channel,
        item.recipientKey,
        JSON.stringify(item.notification),
        item.enqueuedAt,
        item.nextAttemptAt,
      );
      return info.changes > 0;
    },
    async heads(channel, limit) {
      const out: OutboxItem[] = [];
      for (const row of heads.all(channel, channel, limit)) {
        const item = itemOf(row);
        if (typeof item === 'string') {
          options.logger.warn({ id: row.id, channel, reason: item }, 'notification outbox item dropped');
          failed.run(row.attempts, Date.now(), item, row.id);
          continue;
        }
        const { state: _, doneAt: __, ...rest } = item;
        out.push(rest);
      }
      return out;
    },
    async markSent(id, attempts, at) {
      sent.run(attempts, at, id);
    },
    async markRetry(id, attempts, nextAttemptAt, error) {
      retry.run(attempts, nextAttemptAt, error, id);
    },
    async markFailed(id, attempts, at, reason) {
      failed.run(attempts, at, reason, id);
    },
    async get(id) {
      const row = byId.get(id);
      if (!row) return undefined;
      const item = itemOf(row);
      return typeof item === 'string' ? undefined : item;
    },
    async counts() {
      const out = emptyCounts();
      for (const row of counts.all()) {
        if ((NOTIFY_CHANNELS as readonly string[]).includes(row.channel)) {
          out[row.channel as NotifyChannel] = { queued: row.queued, retrying: row.retrying };
        }
      }
      return out;
    },
    async prune(before) {
      return prune.run(before).changes;
    },
    async close() {
      if (db.open) db.close();
    },
  };
}

import type { Logger } from 'pino';
import { z } from 'zod';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import { keyHash } from './targets';

/** Longest a getUpdates call may take. */
const GET_UPDATES_TIMEOUT_MS = 10_000;

const Update = z.object({
  update_id: z.number().int(),
  message: z
    .object({
      text: z.string().optional(),
      chat: z.object({ id: z.number().int(), username: z.string().optional() }),
      from: z.object({ username: z.string().optional() }).optional(),
    })
    .optional(),
});
const GetUpdatesAnswer = z.object({
  ok: z.boolean(),
  result: z.array(z.unknown()).optional(),
  description: z.string().optional(),
});

/** `/start <key>`, as Telegram sends it for a `t.me/<bot>?start=<key>` link or when typed. */
const START_RE = /^\/start(?:@\w+)?\s+([A-Za-z0-9_-]{8,64})\s*$/;

export interface TelegramLinker {
  /**
   * Reads the bot's new messages (getUpdates) and links each chat that sent `/start <key>` with a
   * key still waiting; returns how many were linked. Calls run one at a time.
   */
  poll(): Promise<number>;
}

/**
 * Links Telegram chats by polling the Bot API's getUpdates, as a bot without a public webhook
 * does. Each poll confirms the updates it read (`offset`), so a message is handled once; messages
 * that are not a waiting key are dropped.
 */
export function createTelegramLinker(options: {
  db: Db;
  logger: Logger;
  token: string;
  baseUrl: string;
}): TelegramLinker {
  const { db, logger } = options;
  const base = `${options.baseUrl.replace(/\/+$/, '')}/bot${options.token}`;
  let offset = 0;
  let chain: Promise<unknown> = Promise.resolve();

  async function link(update: z.infer<typeof Update>): Promise<boolean> {
    const match = update.message?.text?.match(START_RE);
    if (!match || !update.message) return false;
    const hash = keyHash(match[1]!);
    const now = unixNow();
    const username = update.message.from?.username ?? update.message.chat.username ?? null;
    const result = await db
      .updateTable('notification_integrations')
      .set({
        target: String(update.message.chat.id),
        detail: username,
        status: 'enabled',
        verify_hash: null,
        verify_until: null,
        updated_at: now,
        last_error: null,
      })
      .where('channel', '=', 'telegram')
      .where('verify_hash', '=', hash)
      .where('verify_until', '>=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async function pollOnce(): Promise<number> {
    const url = `${base}/getUpdates?offset=${offset}&timeout=0&allowed_updates=${encodeURIComponent('["message"]')}`;
    let body: unknown;
    let status: number;
    try {
      const res = await fetch(url, {
        signal: AbortSignal.timeout(GET_UPDATES_TIMEOUT_MS),
        redirect: 'error',
      });
      status = res.status;
      body = await res.json().catch(() => undefined);
    } catch (err) {
      throw new Error(`Telegram getUpdates: no answer (${err instanceof Error ? err.message : String(err)})`);
    }
    const answer = GetUpdatesAnswer.safeParse(body);
    if (!answer.success || !answer.data.ok) {
      const detail = answer.success ? (answer.data.description ?? 'not ok') : 'unreadable answer';
      throw new Error(`Telegram getUpdates: HTTP ${status}: ${detail}`);
    }
    let linked = 0;
    for (const raw of answer.data.result ?? []) {
      const update = Update.safeParse(raw);
      if (!update.success) continue;
      offset = Math.max(offset, update.data.update_id + 1);
      if (await link(update.data)) linked += 1;
    }
    if (linked > 0) logger.info({ linked }, 'Telegram chats linked');
    return linked;
  }

  return {
    poll() {
      const run = chain.then(pollOnce, pollOnce);
      chain = run.catch(() => {});
      return run;
    },
  };
}

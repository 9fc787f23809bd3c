import { type Notification, type Notifier, NotifyError } from './contract';
import { DEFAULT_HTTP_TIMEOUT_MS, excerpt, type HttpAnswer, httpCall, statusError, trimBase } from './http';

export const TELEGRAM_API_URL = 'https://api.telegram.org';

export interface TelegramNotifierOptions {
  /** The bot token from @BotFather. */
  token: string;
  /** Bot API base URL. Default https://api.telegram.org. */
  baseUrl?: string;
  timeoutMs?: number;
}

/** The bot as getMe describes it, for the integration's `bot_info`. */
export interface TelegramBotInfo {
  id: number;
  username: string;
  firstName: string;
}

/** A Telegram notifier, plus the bot's own description. */
export interface TelegramNotifier extends Notifier {
  getMe(signal?: AbortSignal): Promise<TelegramBotInfo>;
}

interface BotApiAnswer {
  ok?: boolean;
  result?: unknown;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** The Bot API's verdict on an answer: its result, or a NotifyError with its description and wait. */
function botResult(target: string, answer: HttpAnswer): unknown {
  const body = (answer.json ?? {}) as BotApiAnswer;
  if (answer.status >= 200 && answer.status < 300 && body.ok === true) return body.result;
  const retryAfter = body.parameters?.retry_after;
  let detail = body.description ?? excerpt(answer.text);
  if (body.parameters?.migrate_to_chat_id !== undefined) {
    detail += ` (the group is now chat ${body.parameters.migrate_to_chat_id})`;
  }
  if (answer.status >= 200 && answer.status < 300) {
    throw new NotifyError(`${target}: ${detail || 'the answer is not ok'}`, { retryable: false });
  }
  throw statusError(target, answer, detail, retryAfter === undefined ? undefined : retryAfter * 1000);
}

/**
 * Telegram through the Bot API: `POST {base}/bot{token}/sendMessage`. With `markdown` the message
 * goes as MarkdownV2; if Telegram cannot parse it, it goes once more as the plain text rather than
 * not at all.
 */
export function createTelegramNotifier(options: TelegramNotifierOptions): TelegramNotifier {
  const base = `${trimBase(options.baseUrl ?? TELEGRAM_API_URL)}/bot${options.token}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;

  async function sendMessage(chatId: string, text: string, markdown: boolean, signal: AbortSignal) {
    const target = `Telegram sendMessage to chat ${chatId}`;
    const answer = await httpCall({
      url: `${base}/sendMessage`,
      target,
      body: {
        chat_id: chatId,
        text,
        ...(markdown ? { parse_mode: 'MarkdownV2' } : {}),
        link_preview_options: { is_disabled: true },
      },
      signal,
      timeoutMs,
    });
    botResult(target, answer);
  }

  return {
    channel: 'telegram',
    async send(n: Notification, signal: AbortSignal) {
      if (n.recipient.channel !== 'telegram') {
        throw new NotifyError(`Telegram notifier given a ${n.recipient.channel} recipient`, {
          retryable: false,
        });
      }
      const { chatId } = n.recipient;
      if (!n.markdown) return sendMessage(chatId, n.text, false, signal);
      try {
        await sendMessage(chatId, n.markdown, true, signal);
      } catch (err) {
        if (err instanceof NotifyError && err.status === 400 && /can't parse entities/i.test(err.message)) {
          await sendMessage(chatId, n.text, false, signal);
          return;
        }
        throw err;
      }
    },
    async getMe(signal = AbortSignal.timeout(timeoutMs)) {
      const answer = await httpCall({
        method: 'GET',
        url: `${base}/getMe`,
        target: 'Telegram getMe',
        signal,
        timeoutMs,
      });
      const me = botResult('Telegram getMe', answer) as {
        id?: number;
        username?: string;
        first_name?: string;
      };
      return { id: me.id ?? 0, username: me.username ?? '', firstName: me.first_name ?? '' };
    },
    async close() {},
  };
}

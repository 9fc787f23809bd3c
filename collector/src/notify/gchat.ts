import { type Notification, type Notifier, NotifyError } from './contract';
import { DEFAULT_HTTP_TIMEOUT_MS, excerpt, httpCall, rebaseWebhook, statusError } from './http';
import { neutralizeGoogleChatText } from './messages';

export const GCHAT_API_URL = 'https://chat.googleapis.com';

export interface GChatNotifierOptions {
  /** Where space webhook URLs are sent. Default https://chat.googleapis.com. */
  baseUrl?: string;
  timeoutMs?: number;
}

/**
 * Google Chat through a space's incoming webhook: `POST {webhook URL} {text}`. The URL's path and
 * query (space, key and token) are kept and its origin becomes the configured base.
 */
export function createGChatNotifier(options: GChatNotifierOptions = {}): Notifier {
  const base = options.baseUrl ?? GCHAT_API_URL;
  const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  return {
    channel: 'gchat',
    async send(n: Notification, signal: AbortSignal) {
      const r = n.recipient;
      if (r.channel !== 'gchat') {
        throw new NotifyError(`Google Chat notifier given a ${r.channel} recipient`, { retryable: false });
      }
      const space = r.webhookUrl.match(/\/spaces\/([^/?#]+)/)?.[1];
      const target = space ? `Google Chat space ${space}` : 'Google Chat webhook';
      const url = rebaseWebhook(r.webhookUrl, base, GCHAT_API_URL, target);
      const answer = await httpCall({
        url,
        target,
        body: { text: neutralizeGoogleChatText(n.text) },
        signal,
        timeoutMs,
      });
      if (answer.status < 200 || answer.status >= 300) {
        const json = answer.json as { error?: { message?: string } } | undefined;
        throw statusError(target, answer, json?.error?.message ?? excerpt(answer.text));
      }
    },
    async close() {},
  };
}

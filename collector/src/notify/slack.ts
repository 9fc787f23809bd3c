import { type Notification, type Notifier, NotifyError, type TokenSource, tokenFor } from './contract';
import { DEFAULT_HTTP_TIMEOUT_MS, excerpt, httpCall, rebaseWebhook, statusError, trimBase } from './http';
import { escapeSlackText } from './messages';

export const SLACK_API_URL = 'https://slack.com';
export const SLACK_WEBHOOK_URL = 'https://hooks.slack.com';

export interface SlackNotifierOptions {
  /** Bot token (`xoxb-...`) for chat.postMessage: one for all tenants, or each tenant's from its OAuth. */
  token?: TokenSource;
  /** Web API base URL. Default https://slack.com. */
  baseUrl?: string;
  /** Where incoming-webhook URLs are sent. Default https://hooks.slack.com. */
  webhookBaseUrl?: string;
  timeoutMs?: number;
}

/** Who the bot token belongs to (auth.test), for the integration's `bot_info`. */
export interface SlackBotInfo {
  team: string;
  user: string;
  botId: string;
  url: string;
}

export interface SlackNotifier extends Notifier {
  authTest(tenant: string, signal?: AbortSignal): Promise<SlackBotInfo>;
}

/**
 * Web API errors (answered as HTTP 200 with `ok: false`) that pass when tried again later; any
 * other error (`channel_not_found`, `invalid_auth`, `not_in_channel`...) fails the same way again.
 */
const RETRYABLE_SLACK_ERRORS = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/**
 * Slack through the Web API (`chat.postMessage` with a bot token) or an incoming webhook. The
 * text is mrkdwn: `markdown` when given (already escaped), else the plain text escaped.
 */
export function createSlackNotifier(options: SlackNotifierOptions = {}): SlackNotifier {
  const api = trimBase(options.baseUrl ?? SLACK_API_URL);
  const hooks = options.webhookBaseUrl ?? SLACK_WEBHOOK_URL;
  const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;

  /** Calls a Web API method and returns its body, or throws for HTTP errors and `ok: false`. */
  async function webApi(method: string, tenant: string, body: unknown, target: string, signal: AbortSignal) {
    const token = await tokenFor(options.token, tenant);
    if (!token) {
      throw new NotifyError(`${target}: no Slack bot token for tenant ${tenant}`, { retryable: false });
    }
    const answer = await httpCall({
      url: `${api}/api/${method}`,
      target,
      headers: { authorization: `Bearer ${token}` },
      body,
      signal,
      timeoutMs,
    });
    const json = (answer.json ?? {}) as { ok?: boolean; error?: string };
    if (answer.status < 200 || answer.status >= 300) {
      throw statusError(target, answer, json.error ?? excerpt(answer.text));
    }
    if (json.ok !== true) {
      const error = json.error ?? (excerpt(answer.text) || 'the answer is not ok');
      throw new NotifyError(`${target}: ${error}`, {
        retryable: RETRYABLE_SLACK_ERRORS.has(error),
        status: 200,
      });
    }
    return json as Record<string, unknown>;
  }

  return {
    channel: 'slack',
    async send(n: Notification, signal: AbortSignal) {
      const r = n.recipient;
      if (r.channel !== 'slack') {
        throw new NotifyError(`Slack notifier given a ${r.channel} recipient`, { retryable: false });
      }
      const text = n.markdown ?? escapeSlackText(n.text);
      if ('webhookUrl' in r) {
        const target = 'Slack incoming webhook';
        const url = rebaseWebhook(r.webhookUrl, hooks, SLACK_WEBHOOK_URL, target);
        const answer = await httpCall({ url, target, body: { text }, signal, timeoutMs });
        // A webhook answers 200 "ok", or an error status with the reason as text (`invalid_payload`).
        if (answer.status < 200 || answer.status >= 300)
          throw statusError(target, answer, excerpt(answer.text));
        return;
      }
      await webApi(
        'chat.postMessage',
        n.tenant,
        { channel: r.conversation, text, mrkdwn: true, unfurl_links: false, unfurl_media: false },
        `Slack chat.postMessage to ${r.conversation}`,
        signal,
      );
    },
    async authTest(tenant, signal = AbortSignal.timeout(timeoutMs)) {
      const body = await webApi('auth.test', tenant, {}, 'Slack auth.test', signal);
      const s = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
      return { team: s('team'), user: s('user'), botId: s('bot_id'), url: s('url') };
    },
    async close() {},
  };
}

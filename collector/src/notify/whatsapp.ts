import { type Notification, type Notifier, NotifyError, type TokenSource, tokenFor } from './contract';
import { DEFAULT_HTTP_TIMEOUT_MS, excerpt, type HttpAnswer, httpCall, statusError, trimBase } from './http';

export const WHATSAPP_API_URL = 'https://graph.facebook.com';
export const WHATSAPP_API_VERSION = 'v21.0';
/** Longest text body the Cloud API takes. */
const MAX_BODY = 4096;

export interface WhatsAppNotifierOptions {
  /** Cloud API access token (a system user's token of the business account). */
  token: TokenSource;
  /** Sender used when a recipient names none: the business phone number's id. */
  phoneNumberId?: string;
  /** Graph API base URL. Default https://graph.facebook.com. */
  baseUrl?: string;
  /** Graph API version path segment. Default v21.0. */
  apiVersion?: string;
  timeoutMs?: number;
}

/** The business number as the Cloud API describes it, for the integration's `bot_info`. */
export interface WhatsAppNumberInfo {
  id: string;
  displayPhoneNumber: string;
  verifiedName: string;
}

export interface WhatsAppNotifier extends Notifier {
  numberInfo(tenant: string, phoneNumberId?: string, signal?: AbortSignal): Promise<WhatsAppNumberInfo>;
}

/**
 * Graph API error codes that pass when tried again later, whatever the HTTP status: rate and
 * spam limits (4, 80007, 130429, 131048, 131056), temporary and unknown errors (1, 2, 131000,
 * 131016). Others (a number not on WhatsApp, the 24-hour window closed, a bad token) are permanent.
 */
const RETRYABLE_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056]);

interface GraphError {
  error?: { message?: string; code?: number; error_subcode?: number; error_data?: { details?: string } };
}

function graphError(target: string, answer: HttpAnswer): NotifyError {
  const e = (answer.json as GraphError | undefined)?.error;
  const detail = e
    ? `${e.message ?? 'error'}${e.code !== undefined ? ` (code ${e.code})` : ''}${e.error_data?.details ? `: ${e.error_data.details}` : ''}`
    : excerpt(answer.text);
  const byStatus = statusError(target, answer, detail);
  if (e?.code !== undefined && RETRYABLE_CODES.has(e.code) && !byStatus.retryable) {
    return new NotifyError(byStatus.message, { retryable: true, status: answer.status });
  }
  return byStatus;
}

/**
 * WhatsApp through the Cloud API: `POST {base}/{version}/{phone number id}/messages` with a text
 * message. A free-form text reaches a user only inside the 24 hours after their last message to the
 * business number; outside it the API refuses (code 131047) and the failure is permanent.
 */
export function createWhatsAppNotifier(options: WhatsAppNotifierOptions): WhatsAppNotifier {
  const base = `${trimBase(options.baseUrl ?? WHATSAPP_API_URL)}/${options.apiVersion ?? WHATSAPP_API_VERSION}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;

  async function bearer(tenant: string, target: string) {
    const token = await tokenFor(options.token, tenant);
    if (!token)
      throw new NotifyError(`${target}: no WhatsApp token for tenant ${tenant}`, { retryable: false });
    return { authorization: `Bearer ${token}` };
  }

  return {
    channel: 'whatsapp',
    async send(n: Notification, signal: AbortSignal) {
      const r = n.recipient;
      if (r.channel !== 'whatsapp') {
        throw new NotifyError(`WhatsApp notifier given a ${r.channel} recipient`, { retryable: false });
      }
      const to = r.to.replace(/^\+/, '');
      const target = `WhatsApp message to ${to}`;
      const sender = r.phoneNumberId ?? options.phoneNumberId;
      if (!sender) throw new NotifyError(`${target}: no sender phone number id`, { retryable: false });
      const answer = await httpCall({
        url: `${base}/${encodeURIComponent(sender)}/messages`,
        target,
        headers: await bearer(n.tenant, target),
        body: {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to,
          type: 'text',
          text: { preview_url: false, body: n.text.slice(0, MAX_BODY) },
        },
        signal,
        timeoutMs,
      });
      if (answer.status < 200 || answer.status >= 300) throw graphError(target, answer);
    },
    async numberInfo(tenant, phoneNumberId = options.phoneNumberId, signal = AbortSignal.timeout(timeoutMs)) {
      const target = 'WhatsApp phone number';
      if (!phoneNumberId) throw new NotifyError(`${target}: no phone number id`, { retryable: false });
      const answer = await httpCall({
        method: 'GET',
        url: `${base}/${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name`,
        target,
        headers: await bearer(tenant, target),
        signal,
        timeoutMs,
      });
      if (answer.status < 200 || answer.status >= 300) throw graphError(target, answer);
      const j = (answer.json ?? {}) as { id?: string; display_phone_number?: string; verified_name?: string };
      return {
        id: j.id ?? phoneNumberId,
        displayPhoneNumber: j.display_phone_number ?? '',
        verifiedName: j.verified_name ?? '',
      };
    },
    async close() {},
  };
}

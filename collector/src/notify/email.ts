import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { type Notification, type Notifier, NotifyError } from './contract';

/** Longest one e-mail may take, connection and greeting included. */
export const DEFAULT_SMTP_TIMEOUT_MS = 15_000;

export interface EmailNotifierOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. */
  url: string;
  /** The From header, e.g. `Flightdeck <alerts@example.com>`. */
  from: string;
  /** Open SMTP connections at most; each carries many messages. Default 2. */
  maxConnections?: number;
  timeoutMs?: number;
}

/** The server part of an SMTP URL, for log lines and messages: never the credentials. */
function serverOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(unreadable SMTP URL)';
  }
}

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/**
 * A nodemailer error as a NotifyError. A 5xx reply (except 503, a session-state error) refuses
 * this message for good, as does an envelope nodemailer could not build (no valid recipient);
 * everything else — 4xx, a refused or dropped connection, a time-out — may pass later.
 */
function classify(err: unknown, server: string): NotifyError {
  const e = (err ?? {}) as SmtpFailure;
  const code = e.responseCode;
  const permanent =
    (code !== undefined && code >= 500 && code < 600 && code !== 503) ||
    ((e.code === 'EENVELOPE' || e.code === 'EMESSAGE') && code === undefined);
  const reason = e.response ?? e.message ?? String(err);
  return new NotifyError(`SMTP ${server}: ${e.code ? `${e.code}: ` : ''}${reason}`, {
    retryable: !permanent,
    ...(code !== undefined ? { status: code } : {}),
    cause: err,
  });
}

/**
 * E-mail through one SMTP server with a pooled nodemailer transport: connections stay open between
 * messages (closed after 4 idle minutes), so a notification costs one SMTP transaction, not a
 * connect, greeting and TLS handshake each.
 */
export function createEmailNotifier(options: EmailNotifierOptions, logger: Logger): Notifier {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS;
  const server = serverOf(options.url);
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: options.maxConnections ?? 2,
    // One immediate retry on a fresh connection when the server dropped the pooled one under the
    // message (an idle time-out racing a send); the queue owns every other retry. The send's signal
    // takes a re-queued message out of the pool, so it never outlives the queue's attempt.
    maxRequeues: 1,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  transport.on('error', (err) => logger.warn({ err, server }, 'SMTP pool error'));

  return {
    channel: 'email',
    async send(n: Notification, signal: AbortSignal) {
      if (n.recipient.channel !== 'email') {
        throw new NotifyError(`e-mail notifier given a ${n.recipient.channel} recipient`, {
          retryable: false,
        });
      }
      try {
        await transport.sendMail({
          from: options.from,
          to: n.recipient.address,
          subject: n.subject,
          text: n.text,
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        });
      } catch (err) {
        throw classify(err, server);
      }
    },
    async close() {
      transport.close();
    },
  };
}

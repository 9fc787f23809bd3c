import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { ApiError } from '../errors';
import type { Mailer, MailMessage } from './contract';

/** Longest a send may take, connection and greeting included, before it counts as failed. */
export const SMTP_SEND_TIMEOUT_MS = 15_000;

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://user:pass@host:465`. */
  url: string;
  /** The From header, e.g. `Flightdeck <no-reply@flightdeck.local>`. */
  from: string;
  timeoutMs?: number;
}

/** The server part of an SMTP URL, for log lines: the credentials never reach the log. */
function serverOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(unreadable SMTP_URL)';
  }
}

/**
 * Sends through an SMTP server with nodemailer, one connection per message (the codes are rare).
 * A server that refuses, does not answer or answers too slowly gives `mail_unavailable`; the
 * reason goes to the log, not to the caller.
 */
export function createSmtpMailer(options: SmtpMailerOptions, logger: Logger): Mailer {
  const timeoutMs = options.timeoutMs ?? SMTP_SEND_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  const server = serverOf(options.url);

  return {
    async send(message: MailMessage) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([transport.sendMail({ from: options.from, ...message }), timeout]);
      } catch (err) {
        logger.warn({ err, server, subject: message.subject }, 'e-mail could not be sent');
        throw ApiError.of('mail_unavailable');
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

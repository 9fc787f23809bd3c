import type { Logger } from 'pino';
import type { ApiConfig } from '../config';
import type { Mailer } from './contract';
import { createLogMailer } from './log';
import { createSmtpMailer } from './smtp';

export type { Mailer, MailMessage } from './contract';

/** The mailer the configuration names: SMTP when SMTP_URL is set, else the log fallback. */
export function createMailer(config: Pick<ApiConfig, 'SMTP_URL' | 'SMTP_FROM'>, logger: Logger): Mailer {
  return config.SMTP_URL
    ? createSmtpMailer({ url: config.SMTP_URL, from: config.SMTP_FROM }, logger)
    : createLogMailer(logger);
}

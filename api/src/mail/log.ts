import type { Logger } from 'pino';
import type { Mailer } from './contract';

/**
 * The mailer without SMTP_URL: each message, its code included, goes to the log at warn level,
 * so a single-machine start still works and the operator can pass the code on.
 */
export function createLogMailer(logger: Logger): Mailer {
  return {
    async send({ to, subject, text }) {
      logger.warn(
        { to, subject, text },
        'SMTP_URL is not set: this e-mail was NOT sent; its text (with the code) is logged here instead',
      );
    },
  };
}

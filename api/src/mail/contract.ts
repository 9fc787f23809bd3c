/** One e-mail: plain text always, HTML optionally (clients show the HTML when they can). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends e-mail. `send` resolves once the message was handed over (SMTP accepted it, or the log
 * fallback wrote it) and rejects with `ApiError` `mail_unavailable` when it could not be, within a
 * bounded time.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

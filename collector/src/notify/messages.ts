import type { AlertLifecycleEvent, AlertStatus, UserLocale } from '@flightdeck/schemas';
import type { AlertSummary, Notification, NotifyChannel, Recipient } from './contract';

/** What an alert message says, per language. `{title}`, `{status}`, `{type}`, `{server}` are filled in. */
interface AlertTexts {
  title: Record<AlertLifecycleEvent, string>;
  /** Subject of events that report a status (new, updated, recurring). */
  subjectWithStatus: string;
  /** Subject of resolved and acknowledged. */
  subject: string;
  status: Record<AlertStatus, string>;
  server: string;
  statusLabel: string;
  value: string;
  acknowledgedBy: string;
  time: string;
  open: string;
}

const TEXTS: Record<UserLocale, AlertTexts> = {
  en: {
    title: {
      new: 'New alert',
      updated: 'Alert changed',
      recurring: 'Recurring alert',
      resolved: 'Alert resolved',
      acknowledged: 'Alert acknowledged',
    },
    subjectWithStatus: '{title} ({status}): {type} on {server}',
    subject: '{title}: {type} on {server}',
    status: { R: 'critical', Y: 'warning', G: 'OK', B: 'blue', P: 'purple', N: 'no status' },
    server: 'Server',
    statusLabel: 'Status',
    value: 'Value',
    acknowledgedBy: 'Acknowledged by',
    time: 'Time',
    open: 'Open in Flightdeck',
  },
  es: {
    title: {
      new: 'Nueva alerta',
      updated: 'Alerta modificada',
      recurring: 'Alerta recurrente',
      resolved: 'Alerta resuelta',
      acknowledged: 'Alerta reconocida',
    },
    subjectWithStatus: '{title} ({status}): {type} en {server}',
    subject: '{title}: {type} en {server}',
    status: { R: 'crítico', Y: 'advertencia', G: 'OK', B: 'azul', P: 'morado', N: 'sin estado' },
    server: 'Servidor',
    statusLabel: 'Estado',
    value: 'Valor',
    acknowledgedBy: 'Reconocida por',
    time: 'Hora',
    open: 'Abrir en Flightdeck',
  },
  pt: {
    title: {
      new: 'Novo alerta',
      updated: 'Alerta alterado',
      recurring: 'Alerta recorrente',
      resolved: 'Alerta resolvido',
      acknowledged: 'Alerta reconhecido',
    },
    subjectWithStatus: '{title} ({status}): {type} em {server}',
    subject: '{title}: {type} em {server}',
    status: { R: 'crítico', Y: 'atenção', G: 'OK', B: 'azul', P: 'roxo', N: 'sem status' },
    server: 'Servidor',
    statusLabel: 'Status',
    value: 'Valor',
    acknowledgedBy: 'Reconhecido por',
    time: 'Horário',
    open: 'Abrir no Flightdeck',
  },
};

const STATUS_ICON: Record<AlertStatus, string> = { R: '🔴', Y: '🟡', G: '🟢', B: '🔵', P: '🟣', N: '⚪' };
const SUBJECT_PREFIX = '[Flightdeck] ';

/** Characters MarkdownV2 reserves outside entities; each must be preceded by a backslash. */
const TELEGRAM_RESERVED = /[_*[\]()~`>#+\-=|{}.!\\]/g;

/** Text for a Telegram MarkdownV2 message: every reserved character escaped with a backslash. */
export function escapeTelegramMarkdown(text: string): string {
  return text.replace(TELEGRAM_RESERVED, '\\$&');
}

/** A URL inside a MarkdownV2 inline link `[..](url)`: only `)` and `\` are escaped there. */
export function escapeTelegramLinkUrl(url: string): string {
  return url.replace(/[)\\]/g, '\\$&');
}

/**
 * Text for Slack mrkdwn: `&`, `<` and `>` become entities, so user text can neither mention
 * (`<!channel>`) nor link; Slack's own advice for escaping.
 */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Text for a Google Chat message: Chat reads `<users/all>` as a mention and `<url|text>` as a link
 * and has no escape, so a zero-width space after each `<` keeps them as typed text.
 */
export function neutralizeGoogleChatText(text: string): string {
  return text.replace(/</g, '<\u200b');
}

/** One line: user text with line breaks would forge lines of the message (or headers of an e-mail). */
function oneLine(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
}

/** `2024-05-01 10:22 UTC`: the same in every language, and no time zone to guess. */
export function formatUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The console page of a service of a server, where the alert popup links too. */
export function alertLink(publicUrl: string, serverId: number | string, service?: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  const path = `/flightdeck/services/${encodeURIComponent(String(serverId))}`;
  return service ? `${base}${path}/${encodeURIComponent(service)}` : `${base}${path}`;
}

/** An alert message in every form a channel may use. */
export interface AlertMessage {
  subject: string;
  text: string;
  /** Telegram MarkdownV2, every user value escaped. */
  telegramMarkdown: string;
  /** Slack mrkdwn, every user value escaped. */
  slackMarkdown: string;
}

/** The alert message in the user's language: a subject line and the body lines. */
export function alertMessage(locale: UserLocale, alert: AlertSummary): AlertMessage {
  const t = TEXTS[locale];
  const title = t.title[alert.event];
  const status = t.status[alert.status];
  const type = oneLine(alert.alertType);
  const server = oneLine(alert.serverName);
  const template =
    alert.event === 'resolved' || alert.event === 'acknowledged' ? t.subject : t.subjectWithStatus;
  const subject =
    SUBJECT_PREFIX +
    template
      .replace('{title}', title)
      .replace('{status}', status)
      .replace('{type}', () => type)
      .replace('{server}', () => server);

  // Label/value pairs after the heading; values are user data, labels are ours.
  const fields: [string, string][] = [
    [t.server, server],
    [t.statusLabel, status],
  ];
  if (alert.value !== undefined && oneLine(alert.value)) fields.push([t.value, oneLine(alert.value)]);
  if (alert.event === 'acknowledged' && alert.acknowledgedBy && oneLine(alert.acknowledgedBy)) {
    fields.push([t.acknowledgedBy, oneLine(alert.acknowledgedBy)]);
  }
  if (alert.at !== undefined) fields.push([t.time, formatUtc(alert.at)]);
  const icon = alert.event === 'resolved' ? '✅' : STATUS_ICON[alert.status];

  const text = [
    `${title}: ${type}`,
    ...fields.map(([k, v]) => `${k}: ${v}`),
    `${t.open}: ${alert.link}`,
  ].join('\n');
  const tg = escapeTelegramMarkdown;
  const telegramMarkdown = [
    `${icon} *${tg(title)}: ${tg(type)}*`,
    ...fields.map(([k, v]) => `${tg(k)}: ${tg(v)}`),
    `[${tg(t.open)}](${escapeTelegramLinkUrl(alert.link)})`,
  ].join('\n');
  const sl = escapeSlackText;
  const slackMarkdown = [
    `${icon} *${sl(title)}: ${sl(type)}*`,
    ...fields.map(([k, v]) => `${sl(k)}: ${sl(v)}`),
    `<${sl(alert.link).replace(/\|/g, '%7C')}|${sl(t.open)}>`,
  ].join('\n');
  return { subject, text, telegramMarkdown, slackMarkdown };
}

/** The markup a channel reads in `Notification.markdown`, if any. */
function markdownFor(channel: NotifyChannel, m: AlertMessage): string | undefined {
  if (channel === 'telegram') return m.telegramMarkdown;
  if (channel === 'slack') return m.slackMarkdown;
  return undefined;
}

/**
 * The notification of an alert change for one recipient, in the recipient's language and with the
 * markup of its channel. `id` must be stable for this change and recipient (the queue dedupes by
 * it), e.g. `${alertId}:${event}:${eventSeq}:${userId}:${channel}`.
 */
export function alertNotification(input: {
  id: string;
  tenant: string;
  recipient: Recipient;
  locale: UserLocale;
  alert: AlertSummary;
}): Notification {
  const m = alertMessage(input.locale, input.alert);
  const markdown = markdownFor(input.recipient.channel, m);
  return {
    id: input.id,
    tenant: input.tenant,
    recipient: input.recipient,
    locale: input.locale,
    subject: m.subject,
    text: m.text,
    ...(markdown ? { markdown } : {}),
    alert: input.alert,
  };
}

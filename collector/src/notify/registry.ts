import type { Logger } from 'pino';
import type { Notifier, NotifyChannel } from './contract';
import { createEmailNotifier, type EmailNotifierOptions } from './email';
import { createGChatNotifier, type GChatNotifierOptions } from './gchat';
import { createSlackNotifier, type SlackNotifierOptions } from './slack';
import { createTelegramNotifier, type TelegramNotifierOptions } from './telegram';
import { createWhatsAppNotifier, type WhatsAppNotifierOptions } from './whatsapp';

/** The options of each channel's notifier. */
export interface NotifierOptionsByChannel {
  email: EmailNotifierOptions;
  telegram: TelegramNotifierOptions;
  slack: SlackNotifierOptions;
  gchat: GChatNotifierOptions;
  whatsapp: WhatsAppNotifierOptions;
}

/** Which channels are configured, with their options; an absent channel has no notifier. */
export type NotifierSettings = { [C in NotifyChannel]?: NotifierOptionsByChannel[C] };

/** Builds the notifier of one channel. */
export type NotifierFactory<C extends NotifyChannel> = (
  options: NotifierOptionsByChannel[C],
  logger: Logger,
) => Notifier;

/** The factory of each channel (CONVENTIONS habit 5). */
export const NOTIFIER_FACTORIES: { readonly [C in NotifyChannel]: NotifierFactory<C> } = {
  email: createEmailNotifier,
  telegram: (options) => createTelegramNotifier(options),
  slack: (options) => createSlackNotifier(options),
  gchat: (options) => createGChatNotifier(options),
  whatsapp: (options) => createWhatsAppNotifier(options),
};

/** The notifiers of the configured channels, for `createNotificationQueue`. */
export function createNotifiers(settings: NotifierSettings, logger: Logger): Notifier[] {
  const out: Notifier[] = [];
  for (const channel of Object.keys(NOTIFIER_FACTORIES) as NotifyChannel[]) {
    const options = settings[channel];
    if (options === undefined) continue;
    const factory = NOTIFIER_FACTORIES[channel] as NotifierFactory<NotifyChannel>;
    out.push(factory(options as never, logger));
  }
  return out;
}

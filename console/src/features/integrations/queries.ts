import type { ChatIntegrationChannel } from '@flightdeck/schemas';
import { queryOptions } from '@tanstack/react-query';
import { fetchIntegration, fetchSlackBot, fetchTelegramBot, fetchWhatsAppBot } from './api';
import { missingSetting } from './integration-state';

export const chatIntegrationKeys = {
  channel: (channel: ChatIntegrationChannel) => ['integrations', channel] as const,
  bot: (channel: ChatIntegrationChannel) => ['integrations', channel, 'bot'] as const,
};

export const chatIntegrationQuery = <C extends ChatIntegrationChannel>(channel: C) =>
  queryOptions({
    queryKey: chatIntegrationKeys.channel(channel),
    queryFn: ({ signal }) => fetchIntegration(channel, signal),
  });

/** A channel not configured on this server does not get better by retrying. */
const retryUnlessNotConfigured = (count: number, error: unknown) =>
  missingSetting(error) === null && count < 2;

export const telegramBotQuery = queryOptions({
  queryKey: chatIntegrationKeys.bot('telegram'),
  queryFn: ({ signal }) => fetchTelegramBot(signal),
  retry: retryUnlessNotConfigured,
  staleTime: 300_000,
});

export const slackBotQuery = queryOptions({
  queryKey: chatIntegrationKeys.bot('slack'),
  queryFn: ({ signal }) => fetchSlackBot(signal),
  retry: retryUnlessNotConfigured,
  staleTime: 300_000,
});

export const whatsAppBotQuery = queryOptions({
  queryKey: chatIntegrationKeys.bot('whatsapp'),
  queryFn: ({ signal }) => fetchWhatsAppBot(signal),
  retry: retryUnlessNotConfigured,
  staleTime: 300_000,
});

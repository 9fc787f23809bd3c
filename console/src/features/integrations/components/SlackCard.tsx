import { SlackSetChatRequest } from '@flightdeck/schemas';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { setSlackChat } from '../api';
import { missingSetting, refusalText } from '../integration-state';
import { chatIntegrationKeys, slackBotQuery } from '../queries';
import { ChatIntegrationCard } from './ChatIntegrationCard';
import { WebhookForm } from './WebhookForm';

const WebhookUrl = z.string().pipe(z.url({ protocol: /^https?$/ }).max(500));
const Conversation = z.string().refine((value) => SlackSetChatRequest.safeParse({ channel: value }).success);

/**
 * Slack: an incoming webhook URL (works without the product's bot), or a channel the product's
 * bot posts to (only when the server has a bot token; bot_info names the bot's workspace).
 */
export function SlackCard() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const bot = useQuery(slackBotQuery);
  const botMissing = bot.isError ? missingSetting(bot.error) : null;
  const [mode, setMode] = useState<'webhook' | 'bot'>('webhook');
  const save = useMutation({
    mutationFn: setSlackChat,
    onSuccess: (data) => {
      queryClient.setQueryData(chatIntegrationKeys.channel('slack'), data);
      notifications.show({ color: 'teal', message: t('integrations.saved') });
    },
  });
  const serverError = save.isError ? refusalText(i18n, save.error) : null;

  return (
    <ChatIntegrationCard channel="slack" missing={null}>
      {(integration) => (
        <Stack gap="sm">
          {integration && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="slack-integration-target">
              {t(`integrations.slack.current.${integration.mode}`, { target: integration.target })}
            </Text>
          )}
          <SegmentedControl
            value={mode}
            onChange={(value) => setMode(value === 'bot' ? 'bot' : 'webhook')}
            data={[
              { value: 'webhook', label: t('integrations.slack.webhook') },
              { value: 'bot', label: t('integrations.slack.channel') },
            ]}
            style={{ alignSelf: 'flex-start' }}
          />
          {mode === 'webhook' ? (
            <WebhookForm
              label={t('integrations.slack.webhookUrl')}
              placeholder="https://hooks.slack.com/services/…"
              submitLabel={t('integrations.save')}
              schema={WebhookUrl}
              invalidText={t('integrations.invalidUrl')}
              serverError={serverError}
              pending={save.isPending}
              onSubmit={(webhook_url) => save.mutateAsync({ webhook_url })}
              testId="slack-webhook"
            />
          ) : botMissing !== null ? (
            <Text size="sm" c="dimmed" data-testid="slack-bot-not-set-up">
              {botMissing
                ? t('integrations.notSetUpNamed', { settings: botMissing })
                : t('integrations.notSetUp')}
            </Text>
          ) : (
            <Stack gap="xs">
              {bot.data && (
                <Text size="sm">
                  {t('integrations.slack.bot', { user: bot.data.user, team: bot.data.team })}
                </Text>
              )}
              <WebhookForm
                label={t('integrations.slack.channelName')}
                placeholder="#alerts"
                submitLabel={t('integrations.save')}
                schema={Conversation}
                invalidText={t('integrations.slack.invalidChannel')}
                serverError={serverError}
                pending={save.isPending}
                onSubmit={(channel) => save.mutateAsync({ channel })}
                testId="slack-channel"
              />
            </Stack>
          )}
        </Stack>
      )}
    </ChatIntegrationCard>
  );
}

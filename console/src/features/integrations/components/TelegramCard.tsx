import type { TelegramKeyData } from '@flightdeck/schemas';
import { Alert, Anchor, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserOffset } from '../../../app/shell/PeriodPicker';
import { formatDateTime } from '../../../app/time-range';
import { errorMessage } from '../../../i18n/error-message';
import { telegramKey } from '../api';
import { missingSetting, telegramState } from '../integration-state';
import { chatIntegrationKeys, telegramBotQuery } from '../queries';
import { ChatIntegrationCard } from './ChatIntegrationCard';

/**
 * Telegram: the product's bot (from bot_info); "get a key" shows the one-time key and the t.me
 * link that sends it to the bot; the chat is linked once the bot received it.
 */
export function TelegramCard() {
  const { t, i18n } = useTranslation();
  const offset = useUserOffset();
  const queryClient = useQueryClient();
  const bot = useQuery(telegramBotQuery);
  const [key, setKey] = useState<TelegramKeyData | null>(null);
  const getKey = useMutation({
    mutationFn: telegramKey,
    onSuccess: (data) => {
      setKey(data);
      void queryClient.invalidateQueries({ queryKey: chatIntegrationKeys.channel('telegram') });
    },
  });
  const missing = bot.isError ? missingSetting(bot.error) : null;

  return (
    <ChatIntegrationCard channel="telegram" missing={missing}>
      {(integration) => {
        const state = telegramState(integration, Math.floor(Date.now() / 1000));
        return (
          <Stack gap="sm">
            {bot.data && (
              <Text size="sm">
                {t('integrations.telegram.bot')}{' '}
                <Anchor href={bot.data.link} target="_blank" rel="noreferrer">
                  {bot.data.name} (@{bot.data.username})
                </Anchor>
              </Text>
            )}
            {bot.isError && missing === null && (
              <Alert color="red" variant="light">
                {errorMessage(i18n, bot.error)}
              </Alert>
            )}
            <Group gap="xs">
              <Badge
                variant="dot"
                color={state === 'linked' ? 'teal' : state === 'waiting' ? 'yellow' : 'gray'}
              >
                {t(`integrations.telegram.state.${state}`)}
              </Badge>
              {integration?.username && <Text size="sm">@{integration.username}</Text>}
            </Group>
            {key && (
              <Alert color="blue" variant="light" data-testid="telegram-key">
                <Stack gap={6}>
                  <Text size="sm">{t('integrations.telegram.keyHelp', { bot: key.bot_username })}</Text>
                  <Code style={{ overflowWrap: 'anywhere' }}>/start {key.key}</Code>
                  <Anchor
                    href={key.link}
                    target="_blank"
                    rel="noreferrer"
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {key.link}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {t('integrations.keyExpires', { date: formatDateTime(key.expires_at, offset) })}
                  </Text>
                </Stack>
              </Alert>
            )}
            {getKey.isError && (
              <Alert color="red" variant="light">
                {errorMessage(i18n, getKey.error)}
              </Alert>
            )}
            <Group gap="sm">
              <Button
                variant="light"
                loading={getKey.isPending}
                onClick={() => getKey.mutate()}
                data-testid="telegram-get-key"
              >
                {t(state === 'linked' ? 'integrations.telegram.relink' : 'integrations.telegram.getKey')}
              </Button>
              {state === 'waiting' && (
                <Button
                  variant="subtle"
                  onClick={() =>
                    void queryClient.invalidateQueries({ queryKey: chatIntegrationKeys.channel('telegram') })
                  }
                >
                  {t('integrations.telegram.check')}
                </Button>
              )}
            </Group>
          </Stack>
        );
      }}
    </ChatIntegrationCard>
  );
}

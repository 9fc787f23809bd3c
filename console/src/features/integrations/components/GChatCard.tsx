import { GChatRegisterRequest } from '@flightdeck/schemas';
import { Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { registerGChat } from '../api';
import { refusalText } from '../integration-state';
import { chatIntegrationKeys } from '../queries';
import { ChatIntegrationCard } from './ChatIntegrationCard';
import { WebhookForm } from './WebhookForm';

const WebhookUrl = z
  .string()
  .refine((value) => GChatRegisterRequest.safeParse({ webhook_url: value }).success);

/** Google Chat: a space's incoming webhook URL (shown masked once saved). */
export function GChatCard() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: registerGChat,
    onSuccess: (data) => {
      queryClient.setQueryData(chatIntegrationKeys.channel('gchat'), data);
      notifications.show({ color: 'teal', message: t('integrations.saved') });
    },
  });
  return (
    <ChatIntegrationCard channel="gchat" missing={null}>
      {(integration) => (
        <Stack gap="sm">
          {integration && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="gchat-integration-target">
              {integration.webhook_url}
            </Text>
          )}
          <WebhookForm
            label={t('integrations.gchat.webhookUrl')}
            placeholder="https://chat.googleapis.com/v1/spaces/…"
            submitLabel={t('integrations.save')}
            schema={WebhookUrl}
            invalidText={t('integrations.invalidUrl')}
            serverError={save.isError ? refusalText(i18n, save.error) : null}
            pending={save.isPending}
            onSubmit={(webhook_url) => save.mutateAsync({ webhook_url })}
            testId="gchat-webhook"
          />
        </Stack>
      )}
    </ChatIntegrationCard>
  );
}

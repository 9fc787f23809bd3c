import { PhoneNumber, WhatsAppValidateKeyRequest } from '@flightdeck/schemas';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { sendWhatsAppKey, validateWhatsAppKey } from '../api';
import { missingSetting, refusalText, whatsAppState } from '../integration-state';
import { chatIntegrationKeys, whatsAppBotQuery } from '../queries';
import { ChatIntegrationCard } from './ChatIntegrationCard';
import { WebhookForm } from './WebhookForm';

const Code = z.string().refine((value) => WhatsAppValidateKeyRequest.safeParse({ key: value }).success);

/** WhatsApp: a phone number gets a 6-digit code from the product's number; the code validates it. */
export function WhatsAppCard() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const bot = useQuery(whatsAppBotQuery);
  const missing = bot.isError ? missingSetting(bot.error) : null;
  const key = chatIntegrationKeys.channel('whatsapp');
  const send = useMutation({
    mutationFn: sendWhatsAppKey,
    onSuccess: (data) => queryClient.setQueryData(key, data),
  });
  const validate = useMutation({
    mutationFn: validateWhatsAppKey,
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      notifications.show({ color: 'teal', message: t('integrations.whatsapp.validated') });
    },
  });

  return (
    <ChatIntegrationCard channel="whatsapp" missing={missing}>
      {(integration) => {
        const state = whatsAppState(integration, Math.floor(Date.now() / 1000));
        return (
          <Stack gap="sm">
            {bot.data && (
              <Text size="sm">
                {t('integrations.whatsapp.bot', { name: bot.data.name, phone: bot.data.phone })}
              </Text>
            )}
            <Group gap="xs">
              <Badge
                variant="dot"
                color={state === 'validated' ? 'teal' : state === 'waiting' ? 'yellow' : 'gray'}
              >
                {t(`integrations.whatsapp.state.${state}`)}
              </Badge>
              {integration?.phone && <Text size="sm">+{integration.phone}</Text>}
            </Group>
            <WebhookForm
              label={t('integrations.whatsapp.phone')}
              placeholder="+5511999998888"
              submitLabel={t('integrations.whatsapp.sendCode')}
              schema={PhoneNumber}
              invalidText={t('integrations.whatsapp.invalidPhone')}
              serverError={send.isError ? refusalText(i18n, send.error) : null}
              pending={send.isPending}
              onSubmit={(phone) => send.mutateAsync({ phone })}
              testId="whatsapp-phone"
            />
            {state === 'waiting' && (
              <WebhookForm
                label={t('integrations.whatsapp.code', { phone: integration?.pending_phone ?? '' })}
                placeholder="123456"
                submitLabel={t('integrations.whatsapp.validate')}
                schema={Code}
                invalidText={t('integrations.whatsapp.invalidCode')}
                serverError={validate.isError ? refusalText(i18n, validate.error) : null}
                pending={validate.isPending}
                onSubmit={(code) => validate.mutateAsync({ key: code })}
                testId="whatsapp-code"
              />
            )}
          </Stack>
        );
      }}
    </ChatIntegrationCard>
  );
}

import type {
  ChatIntegrationChannel,
  GChatIntegration,
  SlackIntegration,
  TelegramIntegration,
  WhatsAppIntegration,
} from '@flightdeck/schemas';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserOffset } from '../../../app/shell/PeriodPicker';
import { formatDateTime } from '../../../app/time-range';
import { errorMessage } from '../../../i18n/error-message';
import { QueryError } from '../../servers/components/QueryError';
import { removeIntegration, setIntegrationEnabled } from '../api';
import { chatIntegrationKeys, chatIntegrationQuery } from '../queries';

/** Each channel's integration as the api answers it. */
export interface ChannelIntegration {
  telegram: TelegramIntegration;
  slack: SlackIntegration;
  gchat: GChatIntegration;
  whatsapp: WhatsAppIntegration;
}

export interface ChatIntegrationCardProps<C extends ChatIntegrationChannel> {
  channel: C;
  /** The settings the server lacks for this channel (shown instead of the set-up form); null: configured. */
  missing: string | null;
  /** What the channel shows below its state: the bot, the set-up form. */
  children: (integration: ChannelIntegration[C] | null) => ReactNode;
}

/**
 * One chat channel of the user's integrations: its state, when the last alert went out and the
 * last failure, enable/disable and remove (after a confirmation). A channel the server is not set
 * up for says so and which settings it needs.
 */
export function ChatIntegrationCard<C extends ChatIntegrationChannel>({
  channel,
  missing,
  children,
}: ChatIntegrationCardProps<C>) {
  const { t, i18n } = useTranslation();
  const offset = useUserOffset();
  const queryClient = useQueryClient();
  const integration = useQuery(chatIntegrationQuery(channel));
  const [confirmRemove, setConfirmRemove] = useState(false);
  const key = chatIntegrationKeys.channel(channel);
  const failed = (error: unknown) =>
    notifications.show({ color: 'red', title: t('integrations.failed'), message: errorMessage(i18n, error) });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => setIntegrationEnabled(channel, enabled),
    onSuccess: (data) => queryClient.setQueryData(key, data),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => removeIntegration(channel),
    onSuccess: () => {
      queryClient.setQueryData(key, null);
      setConfirmRemove(false);
      notifications.show({ color: 'teal', message: t('integrations.removed') });
    },
    onError: failed,
  });

  const own = (integration.data ?? null) as ChannelIntegration[C] | null;
  // The fields every channel has (state, last delivery), read without the channel's own type.
  const data: ChannelIntegration[ChatIntegrationChannel] | null = own;
  const title = t(`integrations.${channel}.title`);
  return (
    <Card
      withBorder
      padding="md"
      component="section"
      aria-label={title}
      data-testid={`${channel}-integration`}
    >
      <Group justify="space-between" gap="xs" mb="xs">
        <Title order={3} fz="h4">
          {title}
        </Title>
        {data && (
          <Badge color={data.status === 'enabled' ? 'teal' : 'gray'} variant="light">
            {t(`alerts.integrations.statuses.${data.status}`)}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t(`integrations.${channel}.intro`)}
      </Text>
      {missing !== null && (
        <Alert color="gray" variant="light" mb="sm" data-testid={`${channel}-integration-not-set-up`}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {missing ? t('integrations.notSetUpNamed', { settings: missing }) : t('integrations.notSetUp')}
          </Text>
        </Alert>
      )}
      {integration.isPending && <Skeleton height={56} aria-label={t('common.loading')} />}
      {integration.isError && (
        <QueryError
          title={t('integrations.loadFailed')}
          error={integration.error}
          retrying={integration.isFetching}
          onRetry={() => void integration.refetch()}
        />
      )}
      {integration.isSuccess && (
        <Stack gap="sm">
          {data && (
            <Group gap="md" wrap="wrap" justify="space-between">
              <Text size="xs" c="dimmed">
                {data.last_sent_at !== null
                  ? t('alerts.integrations.lastSent', { date: formatDateTime(data.last_sent_at, offset) })
                  : t('alerts.integrations.neverSent')}
              </Text>
              <Switch
                label={t('integrations.switch')}
                checked={data.status === 'enabled'}
                disabled={toggle.isPending || missing !== null}
                onChange={(event) => toggle.mutate(event.currentTarget.checked)}
                data-testid={`${channel}-integration-switch`}
              />
            </Group>
          )}
          {data?.last_error && (
            <Alert color="red" variant="light" title={t('alerts.integrations.lastError')}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {data.last_error}
              </Text>
            </Alert>
          )}
          {missing === null && children(own)}
          {data && (
            <Group>
              <Button
                variant="subtle"
                color="red"
                size="compact-sm"
                onClick={() => setConfirmRemove(true)}
                data-testid={`${channel}-integration-remove`}
              >
                {t('integrations.remove')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
      <Modal
        opened={confirmRemove}
        onClose={() => setConfirmRemove(false)}
        title={t('integrations.removeTitle', { channel: title })}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="md">
          <Text size="sm">{t('integrations.removeBody', { channel: title })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmRemove(false)}>
              {t('alerts.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()} data-autofocus>
              {t('integrations.remove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

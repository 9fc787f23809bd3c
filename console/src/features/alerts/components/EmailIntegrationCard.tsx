import { EmailRegisterRequest } from '@flightdeck/schemas';
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
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserOffset } from '../../../app/shell/PeriodPicker';
import { formatDateTime } from '../../../app/time-range';
import { errorMessage } from '../../../i18n/error-message';
import { QueryError } from '../../servers/components/QueryError';
import { registerEmail, removeEmail, setEmailEnabled } from '../api';
import { emailIntegrationQuery, integrationKeys } from '../queries';

/**
 * The signed-in user's e-mail integration (spec 7, "Integrations"): the address alerts are sent to,
 * registered (or replaced) with a form, enabled or disabled with a switch, removed after a
 * confirmation; with when the last alert went out and the last delivery failure.
 */
export function EmailIntegrationCard() {
  const { t, i18n } = useTranslation();
  const offset = useUserOffset();
  const queryClient = useQueryClient();
  const integration = useQuery(emailIntegrationQuery);
  const [address, setAddress] = useState('');
  const [addressError, setAddressError] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);

  const failed = (error: unknown) =>
    notifications.show({
      color: 'red',
      title: t('alerts.integrations.failed'),
      message: errorMessage(i18n, error),
    });
  const done = (message: string) => {
    void queryClient.invalidateQueries({ queryKey: integrationKeys.email });
    notifications.show({ color: 'teal', message });
  };
  const register = useMutation({
    mutationFn: registerEmail,
    onSuccess: (data) => {
      queryClient.setQueryData(integrationKeys.email, data);
      setAddress('');
      done(t('alerts.integrations.email.registered', { address: data.address }));
    },
    onError: failed,
  });
  const toggle = useMutation({
    mutationFn: setEmailEnabled,
    onSuccess: (data) => {
      queryClient.setQueryData(integrationKeys.email, data);
      done(
        t(
          data.status === 'enabled'
            ? 'alerts.integrations.email.enabled'
            : 'alerts.integrations.email.disabled',
        ),
      );
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: removeEmail,
    onSuccess: () => {
      queryClient.setQueryData(integrationKeys.email, null);
      setConfirmRemove(false);
      done(t('alerts.integrations.email.removed'));
    },
    onError: failed,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = EmailRegisterRequest.safeParse({ address: address.trim() });
    if (!parsed.success) {
      setAddressError(t('alerts.integrations.email.invalidAddress'));
      return;
    }
    register.mutate(parsed.data);
  };

  const data = integration.data;
  return (
    <Card
      withBorder
      padding="md"
      component="section"
      aria-labelledby="email-integration-title"
      data-testid="email-integration"
    >
      <Group justify="space-between" gap="xs" mb="xs">
        <Title order={3} fz="h4" id="email-integration-title">
          {t('alerts.integrations.email.title')}
        </Title>
        {data && (
          <Badge
            color={data.status === 'enabled' ? 'teal' : 'gray'}
            variant="light"
            data-testid="email-integration-status"
          >
            {t(`alerts.integrations.statuses.${data.status}`)}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('alerts.integrations.email.intro')}
      </Text>
      {integration.isPending && <Skeleton height={72} aria-label={t('common.loading')} />}
      {integration.isError && (
        <QueryError
          title={t('alerts.integrations.loadFailed')}
          error={integration.error}
          retrying={integration.isFetching}
          onRetry={() => void integration.refetch()}
        />
      )}
      {integration.isSuccess && (
        <Stack gap="sm">
          {data ? (
            <>
              <Group gap="md" wrap="wrap" justify="space-between">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="email-integration-address">
                    {data.address}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {data.last_sent_at !== null
                      ? t('alerts.integrations.lastSent', { date: formatDateTime(data.last_sent_at, offset) })
                      : t('alerts.integrations.neverSent')}
                  </Text>
                </Stack>
                <Switch
                  label={t('alerts.integrations.email.switch')}
                  checked={data.status === 'enabled'}
                  disabled={toggle.isPending}
                  onChange={(event) => toggle.mutate(event.currentTarget.checked)}
                  data-testid="email-integration-switch"
                />
              </Group>
              {data.last_error && (
                <Alert color="red" variant="light" title={t('alerts.integrations.lastError')}>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {data.last_error}
                  </Text>
                </Alert>
              )}
            </>
          ) : (
            <Text size="sm" data-testid="email-integration-none">
              {t('alerts.integrations.email.none')}
            </Text>
          )}
          <form onSubmit={submit} noValidate>
            <Group gap="sm" align="flex-start" wrap="wrap">
              <TextInput
                type="email"
                label={data ? t('alerts.integrations.email.change') : t('alerts.integrations.email.address')}
                placeholder="ops@example.com"
                autoComplete="email"
                value={address}
                onChange={(event) => {
                  setAddress(event.currentTarget.value);
                  setAddressError(null);
                }}
                error={addressError}
                style={{ flex: '1 1 220px', maxWidth: 380 }}
                data-testid="email-integration-input"
              />
              <Button
                type="submit"
                loading={register.isPending}
                mt={{ base: 0, xs: 25 }}
                data-testid="email-integration-register"
              >
                {data ? t('alerts.integrations.email.update') : t('alerts.integrations.email.register')}
              </Button>
            </Group>
          </form>
          {data && (
            <Group>
              <Button
                variant="subtle"
                color="red"
                size="compact-sm"
                onClick={() => setConfirmRemove(true)}
                data-testid="email-integration-remove"
              >
                {t('alerts.integrations.email.remove')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
      <Modal
        opened={confirmRemove}
        onClose={() => setConfirmRemove(false)}
        title={t('alerts.integrations.email.removeTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="md">
          <Text size="sm">{t('alerts.integrations.email.removeBody', { address: data?.address ?? '' })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmRemove(false)}>
              {t('alerts.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()} data-autofocus>
              {t('alerts.integrations.email.remove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../i18n/error-message';
import { availabilityQuery } from './queries';

const route = getRouteApi('/shell/test');

/**
 * /test, one of the spec's test pages: checks whether the plan grants a resource by putting it
 * through the same route gate every page uses. With `?resource=apm` on a plan without APM, the
 * plan-gated overlay shows over this page.
 */
export function PlanCheckPage() {
  const { t, i18n } = useTranslation();
  const { resource } = route.useSearch();
  const check = useQuery({ ...availabilityQuery(resource ?? ''), enabled: resource !== undefined });
  const navigate = useNavigate();
  const [value, setValue] = useState(resource ?? '');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = value.trim();
    void navigate({ to: '/test', search: (prev) => ({ ...prev, resource: next || undefined }) });
  }

  return (
    <Stack gap="lg" maw={640}>
      <Title order={2} fz="h3">
        {t('planCheck.heading')}
      </Title>
      <Card withBorder padding="lg">
        <form onSubmit={onSubmit} aria-label={t('planCheck.heading')}>
          <Group align="flex-end" gap="sm">
            <TextInput
              label={t('planCheck.resource')}
              placeholder="service.mysql"
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              style={{ flex: '1 1 200px' }}
            />
            <Button type="submit">{t('planCheck.check')}</Button>
          </Group>
        </form>
      </Card>
      {!resource && <Text c="dimmed">{t('planCheck.empty')}</Text>}
      {resource && check.isError && (
        <Alert color="red" variant="light" role="alert" title={t('planCheck.failed')}>
          {errorMessage(i18n, check.error)}
        </Alert>
      )}
      {resource && check.data === true && (
        <Alert
          color="teal"
          variant="light"
          title={t('planCheck.availableTitle')}
          data-testid="plan-check-available"
        >
          {t('planCheck.available', { resource })}
        </Alert>
      )}
    </Stack>
  );
}

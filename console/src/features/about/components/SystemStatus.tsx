import type { ComponentHealth } from '@flightdeck/schemas';
import { Alert, Badge, Button, Card, Divider, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../i18n/error-message';
import { formatNumber } from '../../../lib/format';
import { COMPONENT_NAMES, type ComponentName, componentCounters, lastWriteAt, STATE_COLORS } from '../api';
import { healthQuery } from '../queries';

/** Live status of the product's parts, one row each, refreshed every 10 s. */
export function SystemStatus() {
  const { t, i18n } = useTranslation();
  const health = useQuery(healthQuery);
  const components = health.data
    ? COMPONENT_NAMES.filter((name) => health.data.components[name]).map(
        (name) => [name, health.data.components[name]] as const,
      )
    : [];

  return (
    <Card withBorder padding="lg" data-testid="system-status">
      <Group justify="space-between" align="flex-start" mb="sm" gap="xs">
        <Stack gap={2}>
          <Title order={2} fz="h4">
            {t('about.systemStatus')}
          </Title>
          <Text size="xs" c="dimmed">
            {health.dataUpdatedAt > 0
              ? t('about.updatedAt', {
                  time: new Date(health.dataUpdatedAt).toLocaleTimeString(i18n.language),
                })
              : t('about.refreshNote')}
          </Text>
        </Stack>
        {health.data && (
          <Badge
            size="lg"
            variant="light"
            color={STATE_COLORS[health.data.status]}
            data-testid="overall-status"
          >
            {t('about.overall')}: {t(`about.states.${health.data.status}`)}
          </Badge>
        )}
      </Group>

      {health.isPending && (
        <Stack gap="sm" aria-busy="true" aria-label={t('common.loading')}>
          {COMPONENT_NAMES.map((name) => (
            <Skeleton key={name} height={40} />
          ))}
        </Stack>
      )}

      {health.isError && (
        <Alert color="red" variant="light" role="alert" title={t('about.statusFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(i18n, health.error)}</Text>
            <Button
              size="xs"
              variant="light"
              color="red"
              loading={health.isFetching}
              onClick={() => void health.refetch()}
            >
              {t('common.retry')}
            </Button>
          </Stack>
        </Alert>
      )}

      {health.data && components.length === 0 && (
        <Text c="dimmed" size="sm">
          {t('about.noComponents')}
        </Text>
      )}

      {components.length > 0 && (
        <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {components.map(([name, component], index) => (
            <Fragment key={name}>
              {index > 0 && <Divider component="li" aria-hidden="true" />}
              <ComponentRow name={name} component={component} />
            </Fragment>
          ))}
        </Stack>
      )}
    </Card>
  );
}

function ComponentRow({ name, component }: { name: ComponentName; component: ComponentHealth }) {
  const { t, i18n } = useTranslation();
  const counters = componentCounters(component);
  const lastWrite = lastWriteAt(component);
  const facts = [
    ...counters.map(
      ([key, value]) =>
        `${t(`about.counters.${key}`, { defaultValue: key })}: ${formatNumber(value, i18n.language)}`,
    ),
    ...(lastWrite === undefined
      ? []
      : [t('about.lastWrite', { time: new Date(lastWrite).toLocaleTimeString(i18n.language) })]),
  ];
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="sm" py="sm" data-component={name}>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text fw={500}>{t(`about.components.${name}`)}</Text>
        {component.detail && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {component.detail}
          </Text>
        )}
        {facts.length > 0 && (
          <Text size="xs" c="dimmed">
            {facts.join(' · ')}
          </Text>
        )}
      </Stack>
      <Badge
        variant="light"
        color={STATE_COLORS[component.state]}
        data-state={component.state}
        data-testid={`state-${name}`}
        style={{ flexShrink: 0 }}
      >
        {t(`about.states.${component.state}`)}
      </Badge>
    </Group>
  );
}

import type { ServiceStatusData } from '@flightdeck/schemas';
import { Alert, Badge, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/format';
import { secondsSince } from '../format';

type ServiceState = ServiceStatusData['status'];

const COLORS: Record<ServiceState, string> = { up: 'teal', down: 'red', unknown: 'gray' };

export function ServiceStatusBadge({ status }: { status: ServiceState }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color={COLORS[status]}
      data-testid="service-status"
      data-status={status}
      style={{ flexShrink: 0 }}
    >
      {t(`database.status.${status}`)}
    </Badge>
  );
}

/** "Last sample 4 s ago", counting up every second. */
function LastSample({ ts }: { ts: number | null }) {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Text size="sm" c="dimmed" data-testid="service-last-sample" aria-live="off">
      {ts === null
        ? t('database.noSampleYet')
        : t('database.lastSample', { ago: formatDuration(secondsSince(ts, now), i18n.language) })}
    </Text>
  );
}

/**
 * The service's name, status badge, target, engine, version and uptime, when the last sample
 * arrived, and the poller's message while the service is down.
 */
export function ServiceHeader({
  name,
  engine,
  status,
}: {
  name: string;
  engine: string;
  status: ServiceStatusData | undefined;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Stack gap={4}>
      <Group gap="sm" wrap="wrap" align="center">
        <Title
          order={1}
          fz={{ base: 'h3', sm: 'h2' }}
          style={{ overflowWrap: 'anywhere' }}
          data-testid="service-name"
        >
          {name}
        </Title>
        {status ? <ServiceStatusBadge status={status.status} /> : <Skeleton height={20} width={60} />}
      </Group>
      {status ? (
        <>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="service-facts">
            {[
              engine,
              status.target,
              status.version ? t('database.version', { version: status.version }) : null,
              status.uptime_s === null
                ? null
                : t('database.uptime', { uptime: formatDuration(status.uptime_s, i18n.language) }),
              t('database.interval', { interval: formatDuration(status.interval_s, i18n.language) }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          <LastSample ts={status.last_sample_ts} />
          {status.status === 'unknown' && status.message && (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="service-unknown">
              {status.message}
            </Text>
          )}
          {status.status === 'down' && (
            <Alert color="red" variant="light" title={t('database.downTitle')} data-testid="service-down">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {status.message ?? t('database.downNoMessage')}
              </Text>
            </Alert>
          )}
        </>
      ) : (
        <Skeleton height={16} maw={360} />
      )}
    </Stack>
  );
}

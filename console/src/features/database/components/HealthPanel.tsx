import type { DatabaseHealth, HealthStatus } from '@flightdeck/schemas';
import { Badge, Card, Group, ScrollArea, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import classes from '../Database.module.css';
import {
  formatBytesOrDash,
  formatClock,
  formatCount,
  formatHealthValue,
  formatRatio,
  HEALTH_COLORS,
  worstFirst,
} from '../format';
import { dbHealthQuery } from '../queries';
import { InspectionError } from './InspectionError';

type NumericField = {
  [K in keyof DatabaseHealth]: DatabaseHealth[K] extends number | null ? K : never;
}[keyof DatabaseHealth];

const bytes = (value: number | null) => formatBytesOrDash(value);

const DATABASE_COLUMNS: readonly {
  key: NumericField;
  format: (value: number | null, locale: string) => string;
}[] = [
  { key: 'size_bytes', format: bytes },
  { key: 'connections', format: formatCount },
  { key: 'cache_hit_ratio', format: formatRatio },
  { key: 'commits', format: formatCount },
  { key: 'rollbacks', format: formatCount },
  { key: 'deadlocks', format: formatCount },
  { key: 'temp_bytes', format: bytes },
  { key: 'transaction_id_age', format: formatCount },
  { key: 'tables', format: formatCount },
];

export function HealthBadge({ status }: { status: HealthStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={HEALTH_COLORS[status]} data-health={status} style={{ flexShrink: 0 }}>
      {t(`database.health.status.${status}`)}
    </Badge>
  );
}

/** The instance's health checks, then every database's figures; the worst first in both. */
export function HealthPanel({
  serverId,
  serviceId,
  offset,
}: {
  serverId: number;
  serviceId: number;
  offset: number;
}) {
  const { t, i18n } = useTranslation();
  const health = useQuery(dbHealthQuery(serverId, serviceId));
  if (health.isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
        <Skeleton height={80} />
        <Skeleton height={160} />
      </Stack>
    );
  }
  if (!health.data) {
    return (
      <InspectionError
        title={t('database.health.failed')}
        error={health.error}
        retrying={health.isFetching}
        onRetry={() => void health.refetch()}
      />
    );
  }
  const { data } = health;
  const checks = worstFirst(data.checks);
  const databases = worstFirst(data.databases);
  // Columns the engine keeps for at least one database (MySQL has no transaction id age...).
  const columns = DATABASE_COLUMNS.filter((column) => databases.some((db) => db[column.key] !== null));
  const lang = i18n.language;
  return (
    <Stack gap="md" data-testid="health-panel" data-status={data.status}>
      <Group gap="sm">
        <Text fw={600}>{t('database.health.overall')}</Text>
        <HealthBadge status={data.status} />
        <Text size="xs" c="dimmed">
          {t('database.health.readAt', { time: formatClock(data.ts, offset) })}
        </Text>
      </Group>

      {checks.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('database.health.noChecks')}
        </Text>
      ) : (
        <div className={classes.tiles} data-testid="health-checks">
          {checks.map((check) => (
            <Card
              key={check.check}
              withBorder
              padding="sm"
              data-check={check.check}
              data-status={check.status}
              style={{ borderLeft: `4px solid var(--mantine-color-${HEALTH_COLORS[check.status]}-filled)` }}
            >
              <Text size="xs" tt="uppercase" fw={700} c="dimmed">
                {t(`database.health.checks.${check.check}`)}
              </Text>
              <Group justify="space-between" gap={4} wrap="nowrap" align="center">
                <Text fw={700} fz="lg" lh={1.3}>
                  {formatHealthValue(check.value, check.unit, lang)}
                </Text>
                <HealthBadge status={check.status} />
              </Group>
              {check.detail && (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {check.detail}
                </Text>
              )}
            </Card>
          ))}
        </div>
      )}

      <section aria-labelledby="health-databases-title">
        <Title order={3} fz="h5" mb="xs" id="health-databases-title">
          {t('database.health.databases')}
        </Title>
        {databases.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('database.health.noDatabases')}
          </Text>
        ) : (
          <ScrollArea type="auto">
            <Table fz="sm" miw={240 + columns.length * 80} data-testid="health-databases">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('database.health.database')}</Table.Th>
                  <Table.Th>{t('database.health.statusColumn')}</Table.Th>
                  {columns.map((column) => (
                    <Table.Th key={column.key} ta="right">
                      {t(`database.health.columns.${column.key}`)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {databases.map((db) => (
                  <Table.Tr key={db.name} data-database={db.name} data-status={db.status}>
                    <Table.Td className={classes.name} fw={600}>
                      {db.name}
                    </Table.Td>
                    <Table.Td>
                      <HealthBadge status={db.status} />
                    </Table.Td>
                    {columns.map((column) => (
                      <Table.Td key={column.key} ta="right" className={classes.nowrap}>
                        {column.format(db[column.key], lang)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </section>
    </Stack>
  );
}

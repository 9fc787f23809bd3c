import { formatBytes, type LinuxStatusData } from '@flightdeck/schemas';
import { Card, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/time-range';
import { formatChartValue } from '../../../charts/uplot-config';
import { formatDuration } from '../../../lib/format';
import { hostStatusQuery } from '../queries';
import classes from '../Servers.module.css';
import { QueryError } from './QueryError';

const pct = (value: number | null) => formatChartValue(value, { precision: 1, suffix: '%' });
const num = (value: number | null) => formatChartValue(value, { precision: 2 });

interface Tile {
  key: string;
  label: string;
  value: string;
  detail?: string;
}

/** The tiles of spec 7 get_status: CPU, load, memory, swap, uptime and the last heartbeat. */
export function tilesOf(
  status: LinuxStatusData,
  t: (key: string, options?: Record<string, unknown>) => string,
  locale: string,
  offset: number,
): Tile[] {
  const { cpu, load, memory, swap } = status;
  const bytes = (value: number | null) => (value === null ? '—' : formatBytes(value, 1));
  return [
    {
      key: 'cpu',
      label: t('servers.tiles.cpu'),
      value: pct(cpu.total_pct),
      detail: t('servers.tiles.cpuDetail', {
        user: pct(cpu.user_pct),
        system: pct(cpu.system_pct),
        iowait: pct(cpu.iowait_pct),
      }),
    },
    {
      key: 'load',
      label: t('servers.tiles.load'),
      value: num(load.m1),
      detail: t('servers.tiles.loadDetail', { m5: num(load.m5), m15: num(load.m15) }),
    },
    {
      key: 'memory',
      label: t('servers.tiles.memory'),
      value: pct(memory.used_pct),
      detail: t('servers.tiles.ofTotal', {
        used: bytes(memory.used_bytes),
        total: bytes(memory.total_bytes),
      }),
    },
    {
      key: 'swap',
      label: t('servers.tiles.swap'),
      value: swap.total_bytes === 0 ? t('servers.tiles.noSwap') : pct(swap.used_pct),
      detail: t('servers.tiles.ofTotal', { used: bytes(swap.used_bytes), total: bytes(swap.total_bytes) }),
    },
    {
      key: 'uptime',
      label: t('servers.tiles.uptime'),
      value: status.uptime_s === null ? '—' : formatDuration(status.uptime_s, locale),
    },
    {
      key: 'lastSeen',
      label: t('servers.tiles.lastSeen'),
      value: status.last_seen_at === null ? t('servers.never') : formatDateTime(status.last_seen_at, offset),
      detail: t(`servers.status.${status.status}`),
    },
  ];
}

export function StatusTiles({ serverId, offset }: { serverId: number; offset: number }) {
  const { t, i18n } = useTranslation();
  const status = useQuery(hostStatusQuery(serverId));
  if (status.isError && !status.data) {
    return (
      <QueryError
        title={t('servers.statusFailed')}
        error={status.error}
        retrying={status.isFetching}
        onRetry={() => void status.refetch()}
      />
    );
  }
  return (
    <section aria-label={t('servers.sections.status')} className={classes.tiles} data-testid="status-tiles">
      {status.data
        ? tilesOf(status.data, t, i18n.language, offset).map((tile) => (
            <Card key={tile.key} withBorder padding="sm" data-tile={tile.key}>
              <Text size="xs" tt="uppercase" fw={700} c="dimmed">
                {tile.label}
              </Text>
              <Text fw={700} fz={{ base: 'lg', sm: 'xl' }} lh={1.3}>
                {tile.value}
              </Text>
              {tile.detail && (
                <Text size="xs" c="dimmed">
                  {tile.detail}
                </Text>
              )}
            </Card>
          ))
        : [0, 1, 2, 3, 4, 5].map((i) => <Skeleton key={i} height={84} />)}
    </section>
  );
}

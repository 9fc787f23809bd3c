import type { ServiceStatusData } from '@flightdeck/schemas';
import { tileMetricsOf } from './engines';
import { formatCount, formatPercent, formatRate, formatRatio, formatSeconds } from './format';

type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface DatabaseTile {
  key:
    | 'connections'
    | 'activeSessions'
    | 'throughput'
    | 'cacheHitRatio'
    | 'replicationLag'
    | 'longQueries'
    | 'blockedSessions';
  label: string;
  value: string;
  detail?: string;
  /** Mantine colour of the value when it calls for attention. */
  color?: string;
  /** 0–100 for a usage bar. */
  progress?: number;
}

/** Colour of a usage share: red from 90%, yellow from 75%. */
export function usageColor(pct: number): string {
  return pct >= 90 ? 'red' : pct >= 75 ? 'yellow' : 'teal';
}

/**
 * The status tiles from the service's latest figures: connections against the limit, active
 * sessions, queries or transactions per second, cache hit ratio, replication lag, long queries and
 * blocked sessions. A figure the service has not sent in the last 15 minutes reads "—".
 */
export function databaseTiles(status: ServiceStatusData, t: Translate, locale: string): DatabaseTile[] {
  const m = tileMetricsOf(status.service);
  const fig = (name: string | null): number | null => (name === null ? null : (status.figures[name] ?? null));

  const connections = fig(m.connections);
  const max = fig(m.maxConnections);
  const usedPct = fig(m.connectionsPct) ?? (connections !== null && max ? (connections / max) * 100 : null);
  const throughputParts = m.throughput.metrics.map(fig).filter((v): v is number => v !== null);
  const throughput = throughputParts.length > 0 ? throughputParts.reduce((a, b) => a + b, 0) : null;
  const lag = fig(m.replicationLag);
  const long = fig(m.longQueries);
  const blocked = fig(m.blockedSessions);

  const tiles: (DatabaseTile & { metric: string | null | readonly string[] })[] = [
    {
      metric: m.connections,
      key: 'connections',
      label: t('database.tiles.connections'),
      value:
        max === null
          ? formatCount(connections, locale)
          : t('database.tiles.ofLimit', {
              value: formatCount(connections, locale),
              limit: formatCount(max, locale),
            }),
      ...(usedPct === null
        ? {}
        : {
            detail: t('database.tiles.inUse', { pct: formatPercent(usedPct, locale) }),
            progress: Math.min(100, Math.max(0, usedPct)),
            color: usageColor(usedPct),
          }),
    },
    {
      metric: m.activeSessions,
      key: 'activeSessions',
      label: t('database.tiles.activeSessions'),
      value: formatCount(fig(m.activeSessions), locale),
    },
    {
      metric: m.throughput.metrics,
      key: 'throughput',
      label: t(m.throughput.kind === 'tps' ? 'database.tiles.tps' : 'database.tiles.qps'),
      value: formatRate(throughput, locale),
    },
    {
      metric: m.cacheHitRatio,
      key: 'cacheHitRatio',
      label: t('database.tiles.cacheHitRatio'),
      value: formatRatio(fig(m.cacheHitRatio), locale),
    },
    {
      metric: m.replicationLag,
      key: 'replicationLag',
      label: t('database.tiles.replicationLag'),
      value: lag === null ? t('database.tiles.noReplica') : formatSeconds(lag, locale),
    },
    {
      metric: m.longQueries,
      key: 'longQueries',
      label: t('database.tiles.longQueries'),
      value: formatCount(long, locale),
      ...(long !== null && long > 0 ? { color: 'orange' } : {}),
    },
    {
      metric: m.blockedSessions,
      key: 'blockedSessions',
      label: t('database.tiles.blockedSessions'),
      value: formatCount(blocked, locale),
      ...(blocked !== null && blocked > 0 ? { color: 'red' } : {}),
    },
  ];
  // A figure the engine does not have is left out, not shown as an empty tile.
  return tiles
    .filter((tile) => tile.metric !== null && !(Array.isArray(tile.metric) && tile.metric.length === 0))
    .map(({ metric: _metric, ...tile }) => tile);
}

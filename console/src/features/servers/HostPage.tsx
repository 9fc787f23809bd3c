import { Anchor, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../app/refresh';
import { useUserOffset } from '../../app/shell/PeriodPicker';
import { ServiceLinks } from '../database/components/ServiceLinks';
import { DisksTable } from './components/DisksTable';
import { GraphSections } from './components/GraphSections';
import { NetworkTable } from './components/NetworkTable';
import { ProcessTables } from './components/ProcessTables';
import { QueryError } from './components/QueryError';
import { StatusBadge } from './components/StatusBadge';
import { StatusTiles } from './components/StatusTiles';
import { VariablesTable } from './components/VariablesTable';
import { rangeKey, serverQuery, serversKeys } from './queries';
import classes from './Servers.module.css';
import './servers-styles';

const shell = getRouteApi('/shell');

/**
 * One host (Linux or Windows; the agent reports the same on both): status tiles, the charts of the
 * available graphs by category, disks, network, top processes and the inventory. Charts follow
 * the period picker; every global refresh refetches the page's queries.
 */
export function HostPage({ serverId }: { serverId: number }) {
  const { t } = useTranslation();
  const search = shell.useSearch();
  const offset = useUserOffset();
  const queryClient = useQueryClient();
  const server = useQuery(serverQuery(serverId));
  useOnRefresh(() => void queryClient.invalidateQueries({ queryKey: serversKeys.server(serverId) }));
  const range = rangeKey(search, offset);

  const back = (
    <Anchor
      size="sm"
      w="fit-content"
      renderRoot={(props) => <Link {...props} to="/flightdeck/services" search={(prev) => prev} />}
    >
      ← {t('servers.backToList')}
    </Anchor>
  );

  if (server.isError) {
    return (
      <Stack gap="md">
        {back}
        <QueryError
          title={t('servers.hostFailed')}
          error={server.error}
          retrying={server.isFetching}
          onRetry={() => void server.refetch()}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="lg" data-testid="host-page">
      <Stack gap={4}>
        {back}
        {server.data ? (
          <>
            <Group gap="sm" wrap="wrap" align="center">
              <Title
                order={1}
                fz={{ base: 'h3', sm: 'h2' }}
                style={{ overflowWrap: 'anywhere' }}
                data-testid="host-name"
              >
                {server.data.name}
              </Title>
              <StatusBadge status={server.data.status} />
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {[
                server.data.hostname,
                server.data.platform ? t(`servers.platforms.${server.data.platform}`) : null,
                server.data.os,
                server.data.os_version,
                server.data.kernel,
                server.data.architecture,
                server.data.cores === null ? null : t('servers.cores', { count: server.data.cores }),
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
            <ServiceLinks serverId={serverId} services={server.data.services} />
          </>
        ) : (
          <Skeleton height={36} maw={320} />
        )}
      </Stack>

      <StatusTiles serverId={serverId} offset={offset} />
      <GraphSections serverId={serverId} range={range} offset={offset} />
      <div className={classes.tables}>
        <DisksTable serverId={serverId} />
        <NetworkTable serverId={serverId} />
      </div>
      <ProcessTables serverId={serverId} />
      <VariablesTable serverId={serverId} />
    </Stack>
  );
}

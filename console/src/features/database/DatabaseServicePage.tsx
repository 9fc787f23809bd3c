import type { ServerDetail, ServerServiceSummary } from '@flightdeck/schemas';
import { Alert, Anchor, Skeleton, Stack, Tabs } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../app/refresh';
import { useUserOffset } from '../../app/shell/PeriodPicker';
import { QueryError } from '../servers/components/QueryError';
import { rangeKey, serverQuery, serversKeys } from '../servers/queries';
import { HealthPanel } from './components/HealthPanel';
import { ProcessListPanel } from './components/ProcessListPanel';
import { ReplicationPanel } from './components/ReplicationPanel';
import { ServiceCharts } from './components/ServiceCharts';
import { ServiceHeader } from './components/ServiceHeader';
import { ServiceLinks, serviceLabel } from './components/ServiceLinks';
import { ServiceTiles } from './components/ServiceTiles';
import { TablesPanel } from './components/TablesPanel';
import classes from './Database.module.css';
import { type DatabaseTab as Tab, tabsOf } from './engines';
import { databaseKeys, serviceStatusQuery } from './queries';
import './database-styles';

const shell = getRouteApi('/shell');

/**
 * /flightdeck/services/{id}/{service} for a database engine: the server's service of that code,
 * with its status, live charts and the process list, tables, health (and MongoDB's replica set).
 * Every global refresh refetches the page; the status follows the service's poll interval and a
 * new sample refreshes the charts.
 */
export function DatabaseServicePage({ serverId, service }: { serverId: number; service: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const server = useQuery(serverQuery(serverId));
  useOnRefresh(() => void queryClient.invalidateQueries({ queryKey: serversKeys.server(serverId) }));

  const entry = server.data?.services.find((s) => s.service_code === service);
  const back = (
    <Anchor
      size="sm"
      w="fit-content"
      renderRoot={(props) => (
        <Link
          {...props}
          to="/flightdeck/services/$id/{-$service}"
          params={{ id: String(serverId), service: undefined }}
          search={(prev) => prev}
        />
      )}
      data-testid="service-back"
    >
      ← {server.data ? server.data.name : t('database.backToHost')}
    </Anchor>
  );

  if (server.isError) {
    return (
      <Stack gap="md" data-testid="database-page">
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
  if (!server.data) {
    return (
      <Stack gap="md" data-testid="database-page" aria-busy="true" aria-label={t('common.loading')}>
        <Skeleton height={36} maw={320} />
        <Skeleton height={84} />
        <Skeleton height={230} />
      </Stack>
    );
  }
  if (!entry) {
    return (
      <Stack gap="md" data-testid="database-page">
        {back}
        <Alert color="gray" variant="light" data-testid="service-missing">
          {t('database.missing', {
            engine: t(`database.engines.${service}`, { defaultValue: service }),
            server: server.data.name,
          })}
        </Alert>
      </Stack>
    );
  }
  return <ServiceView key={entry.id} server={server.data} entry={entry} back={back} />;
}

function ServiceView({
  server,
  entry,
  back,
}: {
  server: ServerDetail;
  entry: ServerServiceSummary;
  back: React.ReactNode;
}) {
  const { t } = useTranslation();
  const search = shell.useSearch();
  const offset = useUserOffset();
  const queryClient = useQueryClient();
  const service = entry.service_code;
  const status = useQuery(serviceStatusQuery(server.id, entry.id, service));
  const tabs = tabsOf(service);
  const [tab, setTab] = useState<Tab>(tabs[0] ?? 'process');
  const engine = t(`database.engines.${service}`, { defaultValue: service });

  // A new sample in the store: the charts (and the list of charts with data) are asked again.
  const lastSample = status.data ? status.data.last_sample_ts : undefined;
  const seen = useRef<number | null | undefined>(undefined);
  useEffect(() => {
    if (lastSample === undefined) return;
    const before = seen.current;
    seen.current = lastSample;
    if (before === undefined || before === lastSample) return;
    void queryClient.invalidateQueries({ queryKey: databaseKeys.graphs(server.id, entry.id) });
    void queryClient.invalidateQueries({ queryKey: [...serversKeys.server(server.id), 'chart'] });
  }, [lastSample, queryClient, server.id, entry.id]);

  return (
    <Stack gap="lg" data-testid="database-page" data-service={service} data-service-id={entry.id}>
      <Stack gap={4}>
        {back}
        <ServiceHeader name={serviceLabel(t, entry)} engine={engine} status={status.data} />
      </Stack>
      {status.isError && !status.data ? (
        <QueryError
          title={t('database.statusFailed')}
          error={status.error}
          retrying={status.isFetching}
          onRetry={() => void status.refetch()}
        />
      ) : (
        <ServiceTiles status={status.data} />
      )}
      <ServiceCharts
        serverId={server.id}
        serviceId={entry.id}
        service={service}
        range={rangeKey(search, offset)}
        offset={offset}
        intervalS={status.data?.interval_s}
      />
      {tabs.length > 0 && (
        <Tabs
          value={tabs.includes(tab) ? tab : tabs[0]}
          onChange={(value) => value && setTab(value as Tab)}
          keepMounted={false}
          variant="outline"
          data-testid="database-tabs"
        >
          <Tabs.List className={classes.tabList}>
            {tabs.map((value) => (
              <Tabs.Tab key={value} value={value} data-testid={`tab-${value}`}>
                {t(`database.tabs.${value}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.includes('process') && (
            <Tabs.Panel value="process" pt="md">
              <ProcessListPanel serverId={server.id} serviceId={entry.id} offset={offset} />
            </Tabs.Panel>
          )}
          {tabs.includes('tables') && (
            <Tabs.Panel value="tables" pt="md">
              <TablesPanel serverId={server.id} serviceId={entry.id} offset={offset} />
            </Tabs.Panel>
          )}
          {tabs.includes('health') && (
            <Tabs.Panel value="health" pt="md">
              <HealthPanel serverId={server.id} serviceId={entry.id} offset={offset} />
            </Tabs.Panel>
          )}
          {tabs.includes('replication') && (
            <Tabs.Panel value="replication" pt="md">
              <ReplicationPanel serverId={server.id} serviceId={entry.id} offset={offset} />
            </Tabs.Panel>
          )}
        </Tabs>
      )}
      <ServiceLinks serverId={server.id} services={server.services} current={entry.id} />
    </Stack>
  );
}

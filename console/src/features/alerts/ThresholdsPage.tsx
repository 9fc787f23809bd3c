import type { ServerThreshold, Threshold } from '@flightdeck/schemas';
import { Button, Card, Group, Modal, NativeSelect, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../app/refresh';
import { useUserOffset } from '../../app/shell/PeriodPicker';
import { errorMessage } from '../../i18n/error-message';
import { QueryError } from '../servers/components/QueryError';
import { graphsQuery, rangeKey, serversKeys, serversListQuery } from '../servers/queries';
import './alerts-styles';
import { alterThreshold } from './api';
import { ThresholdChart } from './components/ThresholdChart';
import { ThresholdForm } from './components/ThresholdForm';
import { ThresholdsTable } from './components/ThresholdsTable';
import { metricTitle } from './metric-names';
import { serverThresholdsQuery, thresholdsKeys } from './queries';
import { emptyThresholdForm, type ThresholdFormValues, thresholdToForm } from './threshold-form';

const shell = getRouteApi('/shell');
const route = getRouteApi('/shell/flightdeck/management/thresholds');

/**
 * /flightdeck/management/thresholds: pick a server (or every server), list the thresholds that
 * apply to it, create, edit, enable, disable and remove them, and see a threshold's metric on the
 * server's chart with its levels drawn (over the period picker's range).
 */
export function ThresholdsPage() {
  const { t, i18n } = useTranslation();
  const offset = useUserOffset();
  const shellSearch = shell.useSearch();
  const { server: wanted } = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const servers = useQuery(serversListQuery);

  // Without a choice in the URL the first server is shown; "all" still reads through one server.
  const list = servers.data ?? [];
  const current = wanted === 'all' ? null : (list.find((s) => s.id === wanted) ?? list[0] ?? null);
  const readVia = current ?? list[0] ?? null;
  useOnRefresh(() => {
    void queryClient.invalidateQueries({ queryKey: thresholdsKeys.all });
    if (current)
      void queryClient.invalidateQueries({ queryKey: [...serversKeys.server(current.id), 'chart'] });
  });
  const thresholds = useQuery({
    ...serverThresholdsQuery(readVia?.id ?? 0),
    enabled: readVia !== null,
  });
  const graphs = useQuery({ ...graphsQuery(current?.id ?? 0), enabled: current !== null });
  const serverCharts = useMemo(
    () =>
      graphs.data
        ? new Set(Object.values(graphs.data).flatMap((g) => g.map((graph) => graph.graph_id)))
        : undefined,
    [graphs.data],
  );

  const shown: ServerThreshold[] = useMemo(() => {
    const all = thresholds.data?.thresholds ?? [];
    return current ? all : all.filter((th) => th.server_id === null);
  }, [thresholds.data, current]);

  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = shown.find((th) => th.id === selectedId) ?? null;
  const [form, setForm] = useState<ThresholdFormValues | null>(null);
  const [removing, setRemoving] = useState<ServerThreshold | null>(null);

  const failed = (error: unknown) =>
    notifications.show({
      color: 'red',
      title: t('alerts.thresholds.actionFailed'),
      message: errorMessage(i18n, error),
    });
  const toggle = useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      alterThreshold({ id, action: enabled ? 'enable' : 'disable' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: thresholdsKeys.all }),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (id: number) => alterThreshold({ id, action: 'remove' }),
    onSuccess: (_data, id) => {
      void queryClient.invalidateQueries({ queryKey: thresholdsKeys.all });
      notifications.show({ color: 'teal', message: t('alerts.thresholds.removed') });
      if (selectedId === id) setSelectedId(null);
      setRemoving(null);
    },
    onError: failed,
  });

  const pick = (value: string) =>
    void navigate({
      search: (prev) => ({ ...prev, server: value === 'all' ? ('all' as const) : Number(value) }),
      replace: true,
    });

  const noServers = servers.data !== undefined && list.length === 0;

  return (
    <Stack gap="md" data-testid="thresholds-page">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 240px', minWidth: 0 }}>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
            {t('alerts.thresholds.heading')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('alerts.thresholds.intro')}
          </Text>
        </Stack>
        <Button
          onClick={() => setForm(emptyThresholdForm(current ? 'server' : 'all'))}
          disabled={noServers || servers.isPending}
          data-testid="threshold-new"
        >
          {t('alerts.thresholds.new')}
        </Button>
      </Group>

      <NativeSelect
        label={t('alerts.thresholds.server')}
        value={current ? String(current.id) : 'all'}
        onChange={(event) => pick(event.currentTarget.value)}
        data={[
          { value: 'all', label: t('alerts.thresholds.allServers') },
          ...list.map((s) => ({ value: String(s.id), label: s.name })),
        ]}
        disabled={list.length === 0}
        style={{ maxWidth: 360 }}
        data-testid="thresholds-server"
      />

      {servers.isError && (
        <QueryError
          title={t('alerts.thresholds.serversFailed')}
          error={servers.error}
          retrying={servers.isFetching}
          onRetry={() => void servers.refetch()}
        />
      )}
      {noServers && (
        <Card withBorder padding="lg" data-testid="thresholds-no-servers">
          <Text size="sm" c="dimmed">
            {t('alerts.thresholds.noServers')}
          </Text>
        </Card>
      )}
      {(servers.isPending || (readVia !== null && thresholds.isPending)) && (
        <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      )}
      {thresholds.isError && (
        <QueryError
          title={t('alerts.thresholds.listFailed')}
          error={thresholds.error}
          retrying={thresholds.isFetching}
          onRetry={() => void thresholds.refetch()}
        />
      )}
      {thresholds.data && shown.length === 0 && (
        <Card withBorder padding="lg" data-testid="thresholds-empty">
          <Text fw={600}>{t('alerts.thresholds.emptyTitle')}</Text>
          <Text size="sm" c="dimmed" mt={4}>
            {t('alerts.thresholds.emptyBody')}
          </Text>
        </Card>
      )}
      {shown.length > 0 && (
        <ThresholdsTable
          thresholds={shown}
          selectedId={selected?.id ?? null}
          busyId={toggle.isPending ? (toggle.variables?.id ?? null) : null}
          onSelect={(th) => setSelectedId(th.id === selectedId ? null : th.id)}
          onToggle={(th, enabled) => toggle.mutate({ id: th.id, enabled })}
          onEdit={(th) => setForm(thresholdToForm(th))}
          onRemove={setRemoving}
        />
      )}
      {selected &&
        (current ? (
          <ThresholdChart
            serverId={current.id}
            threshold={selected}
            range={rangeKey(shellSearch, offset)}
            offset={offset}
            title={t('alerts.thresholds.chartTitle', {
              metric: metricTitle(t, selected.metric),
              server: current.name,
            })}
          />
        ) : (
          <Text size="sm" c="dimmed" data-testid="threshold-chart-pick-server">
            {t('alerts.thresholds.chartNeedsServer')}
          </Text>
        ))}

      {form && (
        <ThresholdForm
          initial={form}
          serverId={current?.id ?? null}
          serverName={current?.name ?? null}
          serverCharts={serverCharts}
          onClose={() => setForm(null)}
          onSaved={(threshold: Threshold) => {
            setForm(null);
            setSelectedId(threshold.id);
          }}
        />
      )}
      <Modal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={t('alerts.thresholds.removeTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="md">
          <Text size="sm">
            {t('alerts.thresholds.removeBody', { metric: removing ? metricTitle(t, removing.metric) : '' })}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setRemoving(null)}>
              {t('alerts.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => removing && remove.mutate(removing.id)}
              data-autofocus
              data-testid="threshold-remove-confirm"
            >
              {t('alerts.thresholds.remove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

import type { MaintenanceItem, MaintenanceState } from '@flightdeck/schemas';
import { Button, Group, Modal, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../app/refresh';
import { useUserOffset } from '../../app/shell/PeriodPicker';
import { ChartCard } from '../../charts/ChartCard';
import { errorMessage } from '../../i18n/error-message';
import { rangeKey, serversListQuery } from '../servers/queries';
import { finishMaintenance, removeMaintenance } from './api';
import './maintenance-styles';
import { MaintenanceForm } from './components/MaintenanceForm';
import { MaintenanceList } from './components/MaintenanceList';
import {
  emptyMaintenanceForm,
  MAINTENANCE_TABS,
  type MaintenanceFormValues,
  maintenanceChartData,
} from './maintenance-form';
import { maintenanceChartQuery, maintenanceKeys } from './queries';

const shell = getRouteApi('/shell');

type Confirm = { action: 'finish' | 'remove'; item: MaintenanceItem };

/**
 * /flightdeck/management/maintenance: the customer's maintenance windows by state (active,
 * scheduled, historic), a form for a new one, finishing a running window and removing one that is
 * not running (each after a confirmation), and approved maintenance per day over the period
 * picker's range.
 */
export function MaintenancePage() {
  const { t, i18n } = useTranslation();
  const offset = useUserOffset();
  const search = shell.useSearch();
  const queryClient = useQueryClient();
  const servers = useQuery(serversListQuery);
  const [tab, setTab] = useState<MaintenanceState>('active');
  const [form, setForm] = useState<MaintenanceFormValues | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const range = rangeKey(search, offset);
  const chart = useQuery(maintenanceChartQuery(range));
  const chartData = useMemo(
    () => (chart.data ? maintenanceChartData(chart.data.days) : undefined),
    [chart.data],
  );
  useOnRefresh(() => void queryClient.invalidateQueries({ queryKey: maintenanceKeys.all }));

  const act = useMutation({
    mutationFn: async ({ action, item }: Confirm): Promise<void> => {
      if (action === 'finish') await finishMaintenance(item.id);
      else await removeMaintenance(item.id);
    },
    onSuccess: (_data, { action }) => {
      void queryClient.invalidateQueries({ queryKey: maintenanceKeys.all });
      notifications.show({ color: 'teal', message: t(`maintenance.done.${action}`) });
      setConfirm(null);
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('maintenance.actionFailed'),
        message: errorMessage(i18n, error),
      }),
  });

  return (
    <Stack gap="md" data-testid="maintenance-page">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 240px', minWidth: 0 }}>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
            {t('maintenance.heading')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('maintenance.intro')}
          </Text>
        </Stack>
        <Button
          onClick={() => setForm(emptyMaintenanceForm(Math.floor(Date.now() / 1000), offset))}
          disabled={servers.isPending}
          data-testid="maintenance-new"
        >
          {t('maintenance.new')}
        </Button>
      </Group>

      <Tabs
        value={tab}
        onChange={(v) => setTab(MAINTENANCE_TABS.find((s) => s === v) ?? 'active')}
        keepMounted={false}
      >
        <Tabs.List>
          {MAINTENANCE_TABS.map((status) => (
            <Tabs.Tab key={status} value={status} data-testid={`maintenance-tab-${status}`}>
              {t(`maintenance.tabs.${status}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {MAINTENANCE_TABS.map((status) => (
          <Tabs.Panel key={status} value={status} pt="sm">
            <MaintenanceList
              status={status}
              offsetMinutes={offset}
              onFinish={(item) => setConfirm({ action: 'finish', item })}
              onRemove={(item) => setConfirm({ action: 'remove', item })}
            />
          </Tabs.Panel>
        ))}
      </Tabs>

      <ChartCard
        title={t('maintenance.chartTitle')}
        query={{ ...chart, data: chartData }}
        offsetMinutes={offset}
        {...(chart.data ? { period: chart.data.period } : {})}
      />

      <Modal
        opened={form !== null}
        onClose={() => setForm(null)}
        title={t('maintenance.new')}
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {form && (
          <MaintenanceForm
            initial={form}
            servers={servers.data ?? []}
            offsetMinutes={offset}
            onDone={() => setForm(null)}
            onCancel={() => setForm(null)}
          />
        )}
      </Modal>

      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm ? t(`maintenance.${confirm.action}Title`) : ''}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="md">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {confirm ? t(`maintenance.${confirm.action}Body`, { reason: confirm.item.reason }) : ''}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('maintenance.cancel')}
            </Button>
            <Button
              color={confirm?.action === 'remove' ? 'red' : 'blue'}
              loading={act.isPending}
              onClick={() => confirm && act.mutate(confirm)}
              data-testid="maintenance-confirm"
            >
              {confirm ? t(`maintenance.${confirm.action}`) : ''}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

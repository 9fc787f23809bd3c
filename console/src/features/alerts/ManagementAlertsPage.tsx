import type { AlertTypeEntry, AlertTypeId, UnavailableMark } from '@flightdeck/schemas';
import { Card, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../app/refresh';
import { useUserOffset } from '../../app/shell/PeriodPicker';
import { formatDateTime } from '../../app/time-range';
import { errorMessage } from '../../i18n/error-message';
import { QueryError } from '../servers/components/QueryError';
import { rangeKey, serversListQuery } from '../servers/queries';
import './alerts-styles';
import { AlertTypesSection, type TypeChange } from './components/AlertTypesSection';
import { MttxSection } from './components/MttxSection';
import { UnavailabilityHistory } from './components/UnavailabilityHistory';
import { UnavailableMarks } from './components/UnavailableMarks';
import { activeMarks, markKey } from './management';
import { changeAlertStatus, removeUnavailable, setUnavailable } from './management-api';
import {
  alertTypesQuery,
  managementKeys,
  mttxQuery,
  mutesQuery,
  unavailableQuery,
} from './management-queries';
import { useUserLocale } from './useUserLocale';

const shell = getRouteApi('/shell');

/** Key of a type change: the type in one server's scope, or in every server's (`*`). */

/**
 * /flightdeck/management/alerts: MTTA and MTTR over the period picker's range, the alert-type
 * catalogue with muting per type (for one server or every server), the servers and services
 * marked unavailable, and when servers were unavailable over the range.
 */
export function ManagementAlertsPage() {
  const { t, i18n } = useTranslation();
  const locale = useUserLocale();
  const offset = useUserOffset();
  const search = shell.useSearch();
  const queryClient = useQueryClient();
  const range = rangeKey(search, offset);
  const [serverPick, setServerPick] = useState('');
  const servers = useQuery(serversListQuery);
  const list = servers.data ?? [];
  const server = list.find((s) => String(s.id) === serverPick) ?? null;
  const serverId = server?.id ?? null;

  const types = useQuery(alertTypesQuery(locale));
  const mttx = useQuery(mttxQuery(range, serverId));
  const unavailable = useQuery(unavailableQuery(range, serverId));
  useOnRefresh(() => void queryClient.invalidateQueries({ queryKey: managementKeys.all }));

  const formatTime = (unixS: number) => formatDateTime(unixS, offset);
  const failed = (error: unknown) =>
    notifications.show({
      color: 'red',
      title: t('alerts.management.actionFailed'),
      message: errorMessage(i18n, error),
    });

  // What is muted in the scope shown: the type itself there, or for every server.
  const mutes = useQuery(mutesQuery());
  const scopeChanges = useMemo(() => {
    const out = new Map<number, TypeChange>();
    for (const mute of mutes.data ?? []) {
      if (mute.server_id === serverId) out.set(mute.type_id, { enabled: false, at: mute.since });
      else if (mute.server_id === null && !out.has(mute.type_id)) {
        out.set(mute.type_id, { enabled: false, at: mute.since, allServers: true });
      }
    }
    return out;
  }, [mutes.data, serverId]);
  const scopeLabel = server ? server.name : t('alerts.management.allServersScope');

  const status = useMutation({
    mutationFn: ({ type, enabled }: { type: AlertTypeEntry; enabled: boolean; scope: string }) =>
      changeAlertStatus({
        // The catalogue answers only its own ids.
        id: type.id as AlertTypeId,
        enabled,
        ...(serverId !== null ? { server_id: serverId } : {}),
      }),
    onSuccess: (data, { type, scope }) => {
      void queryClient.invalidateQueries({ queryKey: managementKeys.mutes });
      notifications.show({
        color: 'teal',
        message: t(
          data.enabled ? 'alerts.management.types.enabledDone' : 'alerts.management.types.mutedDone',
          {
            type: type.title,
            scope,
          },
        ),
      });
    },
    onError: failed,
  });

  const mark = useMutation({
    mutationFn: ({ serverId: id, service }: { serverId: number; service: string | null }) =>
      setUnavailable({ server_id: id, ...(service !== null ? { service } : {}) }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: managementKeys.all });
      notifications.show({ color: 'teal', message: t('alerts.management.unavailable.marked') });
    },
    onError: failed,
  });
  const unmark = useMutation({
    mutationFn: (m: UnavailableMark) =>
      removeUnavailable({ server_id: m.server_id, ...(m.service !== null ? { service: m.service } : {}) }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: managementKeys.all });
      notifications.show({ color: 'teal', message: t('alerts.management.unavailable.unmarked') });
    },
    onError: failed,
  });
  const markPending = mark.isPending
    ? markKey(mark.variables.serverId, mark.variables.service)
    : unmark.isPending
      ? markKey(unmark.variables.server_id, unmark.variables.service)
      : null;

  return (
    <Stack gap="xl" data-testid="management-alerts-page">
      <Stack gap="sm">
        <Stack gap={4}>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
            {t('alerts.management.heading')}
          </Title>
          <Text size="sm" c="dimmed">
            {unavailable.data
              ? t('alerts.management.period', {
                  start: formatTime(unavailable.data.period.start),
                  end: formatTime(unavailable.data.period.end),
                })
              : t('alerts.management.intro')}
          </Text>
        </Stack>
        <NativeSelect
          label={t('alerts.management.server')}
          value={serverPick}
          onChange={(event) => setServerPick(event.currentTarget.value)}
          data={[
            { value: '', label: t('alerts.management.allServers') },
            ...list.map((s) => ({ value: String(s.id), label: s.name })),
          ]}
          style={{ maxWidth: 360 }}
          data-testid="management-alerts-server"
        />
        {servers.isError && (
          <QueryError
            title={t('alerts.management.serversFailed')}
            error={servers.error}
            retrying={servers.isFetching}
            onRetry={() => void servers.refetch()}
          />
        )}
        {servers.data && list.length === 0 && (
          <Card withBorder padding="lg" data-testid="management-alerts-no-servers">
            <Text size="sm" c="dimmed">
              {t('alerts.management.noServers')}
            </Text>
          </Card>
        )}
      </Stack>

      <MttxSection query={mttx} offset={offset} />

      <AlertTypesSection
        query={types}
        scopeLabel={scopeLabel}
        changes={scopeChanges}
        pending={status.isPending ? status.variables.type.id : null}
        onChange={(type, enabled) => status.mutate({ type, enabled, scope: scopeLabel })}
        formatTime={formatTime}
      />

      <UnavailableMarks
        key={serverId ?? 'all'}
        marks={unavailable.data ? activeMarks(unavailable.data.marked) : undefined}
        servers={list}
        defaultServerId={serverId}
        pending={markPending}
        onMark={(id, service) => mark.mutate({ serverId: id, service })}
        onUnmark={(m) => unmark.mutate(m)}
        formatTime={formatTime}
      />

      {unavailable.isError && (
        <QueryError
          title={t('alerts.management.history.failed')}
          error={unavailable.error}
          retrying={unavailable.isFetching}
          onRetry={() => void unavailable.refetch()}
        />
      )}
      <UnavailabilityHistory
        periods={unavailable.data?.periods}
        isPending={unavailable.isPending}
        formatTime={formatTime}
      />
    </Stack>
  );
}

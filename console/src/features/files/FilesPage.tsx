import { MONITORED_FILE_STATUSES, type MonitoredFileStatus } from '@flightdeck/schemas';
import { Button, Card, Group, NativeSelect, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../app/refresh';
import { useUserOffset } from '../../app/shell/PeriodPicker';
import { QueryError } from '../servers/components/QueryError';
import { serversListQuery } from '../servers/queries';
import { ConfirmAction, type PendingAction } from './components/ConfirmAction';
import { FileDetails } from './components/FileDetails';
import { FilesTable } from './components/FilesTable';
import { NewFileDialog } from './components/NewFileDialog';
import { filterFiles, sortFiles } from './files';
import './files-styles';
import { filesKeys, filesListQuery } from './queries';
import { useFileActions } from './useFileActions';

function isStatus(value: string): value is MonitoredFileStatus {
  return (MONITORED_FILE_STATUSES as readonly string[]).includes(value);
}

/**
 * /flightdeck/cockpit/files_criticals: the critical files of every server, their status as the
 * agents last found them, and Equalize / Remove / New. A row opens the file's change history.
 */
export function FilesPage() {
  const { t } = useTranslation();
  const offset = useUserOffset();
  const queryClient = useQueryClient();
  const files = useQuery(filesListQuery);
  const servers = useQuery(serversListQuery);
  useOnRefresh(() => void queryClient.invalidateQueries({ queryKey: filesKeys.all }));

  const [serverFilter, setServerFilter] = useState('');
  const [statusFilter, setStatusFilter] = useState('');
  const [newOpen, setNewOpen] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  const [pending, setPending] = useState<PendingAction | null>(null);
  const { equalize, remove } = useFileActions({
    onRemoved: (id) => setOpenId((current) => (current === id ? null : current)),
  });

  const shown = useMemo(
    () =>
      sortFiles(
        filterFiles(files.data ?? [], {
          serverId: serverFilter ? Number(serverFilter) : undefined,
          status: isStatus(statusFilter) ? statusFilter : undefined,
        }),
      ),
    [files.data, serverFilter, statusFilter],
  );
  // Servers to filter by: those the API lists, and any a file names (the list may have failed).
  const serverOptions = useMemo(() => {
    const byId = new Map<number, string>();
    for (const s of servers.data ?? []) byId.set(s.id, s.name);
    for (const f of files.data ?? []) if (!byId.has(f.server_id)) byId.set(f.server_id, f.server_name);
    return [...byId]
      .sort((a, b) => a[1].localeCompare(b[1]))
      .map(([id, name]) => ({ value: String(id), label: name }));
  }, [servers.data, files.data]);
  const noServers = servers.data !== undefined && servers.data.length === 0;

  function confirm(action: PendingAction) {
    const done = { onSettled: () => setPending(null) };
    if (action.kind === 'equalize') equalize.mutate(action.file, done);
    else remove.mutate(action.file, done);
  }

  return (
    <Stack gap="md" data-testid="files-page">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 240px', minWidth: 0 }}>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
            {t('files.heading')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('files.intro')}
          </Text>
        </Stack>
        <Button onClick={() => setNewOpen(true)} disabled={noServers} data-testid="files-new">
          {t('files.new')}
        </Button>
      </Group>

      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label={t('files.filters.server')}
          value={serverFilter}
          onChange={(event) => setServerFilter(event.currentTarget.value)}
          data={[{ value: '', label: t('files.filters.allServers') }, ...serverOptions]}
          style={{ flex: '1 1 180px', maxWidth: 320 }}
          data-testid="files-filter-server"
        />
        <NativeSelect
          label={t('files.filters.status')}
          value={statusFilter}
          onChange={(event) => setStatusFilter(event.currentTarget.value)}
          data={[
            { value: '', label: t('files.filters.all') },
            ...MONITORED_FILE_STATUSES.map((s) => ({ value: s, label: t(`files.status.${s}`) })),
          ]}
          style={{ flex: '1 1 140px', maxWidth: 220 }}
          data-testid="files-filter-status"
        />
      </Group>

      {files.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      )}
      {files.isError && (
        <QueryError
          title={t('files.listFailed')}
          error={files.error}
          retrying={files.isFetching}
          onRetry={() => void files.refetch()}
        />
      )}
      {files.data && files.data.length === 0 && (
        <Card withBorder padding="lg" data-testid="files-empty">
          <Text fw={600}>{t('files.empty.title')}</Text>
          <Text size="sm" c="dimmed" mt={4}>
            {noServers ? t('files.noServers') : t('files.empty.body')}
          </Text>
        </Card>
      )}
      {files.data && files.data.length > 0 && shown.length === 0 && (
        <Card withBorder padding="lg" data-testid="files-empty-filtered">
          <Text size="sm" c="dimmed">
            {t('files.emptyFiltered')}
          </Text>
        </Card>
      )}
      {shown.length > 0 && (
        <FilesTable
          files={shown}
          offset={offset}
          onOpen={(file) => setOpenId(file.id)}
          onEqualize={(file) => setPending({ kind: 'equalize', file })}
          onRemove={(file) => setPending({ kind: 'remove', file })}
        />
      )}
      {files.data && files.data.length > 0 && (
        <Text size="xs" c="dimmed">
          {t('files.count', { count: shown.length })}
        </Text>
      )}

      <NewFileDialog
        opened={newOpen}
        servers={servers.data ?? []}
        defaultServerId={serverFilter ? Number(serverFilter) : undefined}
        onClose={() => setNewOpen(false)}
      />
      <FileDetails
        fileId={openId}
        offset={offset}
        onClose={() => setOpenId(null)}
        onEqualize={(file) => setPending({ kind: 'equalize', file })}
        onRemove={(file) => setPending({ kind: 'remove', file })}
      />
      <ConfirmAction
        action={pending}
        busy={equalize.isPending || remove.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </Stack>
  );
}

import type { MonitoredFile } from '@flightdeck/schemas';
import { Button, Card, Code, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/time-range';
import { canEqualize, shortHash } from '../files';
import { FileStatusBadge } from './FileStatusBadge';

/** Equalize (for a changed file) and Remove of one row. */
function RowActions({
  file,
  onEqualize,
  onRemove,
}: {
  file: MonitoredFile;
  onEqualize: (file: MonitoredFile) => void;
  onRemove: (file: MonitoredFile) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="wrap" justify="flex-start" onClick={(event) => event.stopPropagation()}>
      {canEqualize(file) && (
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => onEqualize(file)}
          data-testid="file-equalize"
        >
          {t('files.actions.equalize')}
        </Button>
      )}
      <Button
        size="compact-xs"
        variant="subtle"
        color="red"
        onClick={() => onRemove(file)}
        data-testid="file-remove"
      >
        {t('files.actions.remove')}
      </Button>
    </Group>
  );
}

/**
 * The monitored files, one row each: server, path, status, last check, short hash, last change,
 * and the row's actions. The path opens the details; below sm the hidden columns read under it.
 */
export function FilesTable({
  files,
  offset,
  onOpen,
  onEqualize,
  onRemove,
}: {
  files: readonly MonitoredFile[];
  offset: number;
  onOpen: (file: MonitoredFile) => void;
  onEqualize: (file: MonitoredFile) => void;
  onRemove: (file: MonitoredFile) => void;
}) {
  const { t } = useTranslation();
  const when = (seconds: number | null) =>
    seconds === null ? t('files.never') : formatDateTime(seconds, offset);
  return (
    <Card withBorder padding={0}>
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" data-testid="files-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th visibleFrom="sm">{t('files.columns.server')}</Table.Th>
            <Table.Th>{t('files.columns.path')}</Table.Th>
            <Table.Th>{t('files.columns.status')}</Table.Th>
            <Table.Th visibleFrom="md">{t('files.columns.lastChecked')}</Table.Th>
            <Table.Th visibleFrom="lg">{t('files.columns.hash')}</Table.Th>
            <Table.Th visibleFrom="sm">{t('files.columns.changedAt')}</Table.Th>
            <Table.Th visibleFrom="sm">{t('files.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((file) => (
            <Table.Tr
              key={file.id}
              data-testid="file-row"
              data-path={file.path}
              data-status={file.status}
              onClick={() => onOpen(file)}
              style={{ cursor: 'pointer' }}
            >
              <Table.Td visibleFrom="sm" style={{ overflowWrap: 'anywhere', maxWidth: 200 }}>
                {file.server_name}
              </Table.Td>
              <Table.Td style={{ minWidth: 0, maxWidth: 420 }}>
                <UnstyledButton
                  onClick={(event) => {
                    event.stopPropagation();
                    onOpen(file);
                  }}
                  aria-label={t('files.actions.details', { path: file.path })}
                  style={{
                    color: 'var(--mantine-color-anchor)',
                    fontWeight: 600,
                    fontFamily: 'var(--mantine-font-family-monospace)',
                    fontSize: 'var(--mantine-font-size-sm)',
                    overflowWrap: 'anywhere',
                    textAlign: 'left',
                  }}
                >
                  {file.path}
                </UnstyledButton>
                <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                  {[
                    file.server_name,
                    `${t('files.columns.lastChecked')}: ${when(file.last_checked_at)}`,
                    file.changed_at !== null
                      ? `${t('files.columns.changedAt')}: ${when(file.changed_at)}`
                      : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
                {file.error && file.status !== 'ok' && file.status !== 'changed' && (
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="file-error">
                    {file.error}
                  </Text>
                )}
                {/* Below sm the actions read under the path too. */}
                <Group hiddenFrom="sm" mt={6}>
                  <RowActions file={file} onEqualize={onEqualize} onRemove={onRemove} />
                </Group>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <FileStatusBadge status={file.status} />
              </Table.Td>
              <Table.Td visibleFrom="md" style={{ whiteSpace: 'nowrap' }}>
                {when(file.last_checked_at)}
              </Table.Td>
              <Table.Td visibleFrom="lg">
                {file.sha256 === null ? '—' : <Code title={file.sha256}>{shortHash(file.sha256)}</Code>}
              </Table.Td>
              <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                {file.changed_at === null ? '—' : when(file.changed_at)}
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <RowActions file={file} onEqualize={onEqualize} onRemove={onRemove} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

import { formatBytes, type MonitoredFileDetail } from '@flightdeck/schemas';
import {
  Alert,
  Badge,
  Button,
  Code,
  Drawer,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/time-range';
import { QueryError } from '../../servers/components/QueryError';
import { canEqualize, shortHash } from '../files';
import { fileQuery, LIST_POLL_MS } from '../queries';
import { FileStatusBadge } from './FileStatusBadge';

/** xs and sm screens get the panel full-screen; otherwise 30% wide on the right (spec 2). */
const SMALL_SCREEN = '(max-width: 61.99em)';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function Hash({ value }: { value: string | null }) {
  return value === null ? (
    '—'
  ) : (
    <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{value}</Code>
  );
}

function Body({
  file,
  offset,
  onEqualize,
  onRemove,
}: {
  file: MonitoredFileDetail;
  offset: number;
  onEqualize: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const when = (seconds: number | null) =>
    seconds === null ? t('files.never') : formatDateTime(seconds, offset);
  return (
    <Stack gap="md" data-testid="file-details" data-status={file.status}>
      <Stack gap={4}>
        <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {file.path}
        </Code>
        <Group gap="xs" wrap="wrap">
          <FileStatusBadge status={file.status} />
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {file.server_name}
          </Text>
        </Group>
      </Stack>
      {file.error && file.status !== 'ok' && file.status !== 'changed' && (
        <Alert color="orange" variant="light" title={t('files.detail.error')}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {file.error}
          </Text>
        </Alert>
      )}
      <Group gap="sm">
        {canEqualize(file) && (
          <Button size="xs" onClick={onEqualize} data-testid="details-equalize">
            {t('files.actions.equalize')}
          </Button>
        )}
        <Button size="xs" variant="light" color="red" onClick={onRemove}>
          {t('files.actions.remove')}
        </Button>
      </Group>
      <Field label={t('files.detail.baseline')}>
        <Hash value={file.baseline_sha256} />
      </Field>
      <Field label={t('files.detail.current')}>
        <Hash value={file.sha256} />
      </Field>
      <Group gap="xl" wrap="wrap" align="flex-start">
        <Field label={t('files.detail.size')}>{file.size === null ? '—' : formatBytes(file.size)}</Field>
        <Field label={t('files.detail.mtime')}>{when(file.mtime)}</Field>
        <Field label={t('files.detail.lastChecked')}>{when(file.last_checked_at)}</Field>
        <Field label={t('files.detail.baselineAt')}>{when(file.baseline_at)}</Field>
        <Field label={t('files.detail.changedAt')}>
          {file.changed_at === null ? '—' : when(file.changed_at)}
        </Field>
      </Group>

      <Title order={3} fz="md">
        {t('files.detail.history')}
      </Title>
      {file.changes.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="file-history-empty">
          {t('files.detail.noHistory')}
        </Text>
      ) : (
        <Stack gap="xs" data-testid="file-history">
          {file.changes.map((change) => (
            <Paper key={change.id} withBorder p="xs" radius="sm" data-testid="file-change">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="xs" fw={600}>
                  {when(change.detected_at)}
                </Text>
                {change.accepted_at === null ? (
                  <Badge size="sm" color="red" variant="light" style={{ flexShrink: 0 }}>
                    {t('files.detail.open')}
                  </Badge>
                ) : (
                  <Badge
                    size="sm"
                    color="gray"
                    variant="light"
                    title={when(change.accepted_at)}
                    style={{ flexShrink: 0 }}
                  >
                    {t('files.detail.accepted')}
                  </Badge>
                )}
              </Group>
              <Text size="xs" mt={4} style={{ overflowWrap: 'anywhere' }}>
                <Code title={change.previous_sha256 ?? undefined}>{shortHash(change.previous_sha256)}</Code>
                {' → '}
                <Code title={change.sha256}>{shortHash(change.sha256)}</Code>
                {change.size !== null && (
                  <Text span size="xs" c="dimmed">
                    {` · ${formatBytes(change.size)}`}
                  </Text>
                )}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** A file's details and change history, in the right-hand panel. */
export function FileDetails({
  fileId,
  offset,
  onClose,
  onEqualize,
  onRemove,
}: {
  fileId: number | null;
  offset: number;
  onClose: () => void;
  onEqualize: (file: MonitoredFileDetail) => void;
  onRemove: (file: MonitoredFileDetail) => void;
}) {
  const { t } = useTranslation();
  const small = useMediaQuery(SMALL_SCREEN) ?? false;
  const file = useQuery({
    ...fileQuery(fileId ?? 0),
    enabled: fileId !== null,
    refetchInterval: LIST_POLL_MS,
  });
  return (
    <Drawer
      opened={fileId !== null}
      onClose={onClose}
      position="right"
      size={small ? '100%' : '30%'}
      title={t('files.detail.title')}
      data-testid="file-details-panel"
    >
      {file.isPending && fileId !== null && (
        <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={40} />
          <Skeleton height={120} />
        </Stack>
      )}
      {file.isError && (
        <QueryError
          title={t('files.detailFailed')}
          error={file.error}
          retrying={file.isFetching}
          onRetry={() => void file.refetch()}
        />
      )}
      {file.data && (
        <Body
          file={file.data}
          offset={offset}
          onEqualize={() => file.data && onEqualize(file.data)}
          onRemove={() => file.data && onRemove(file.data)}
        />
      )}
    </Drawer>
  );
}

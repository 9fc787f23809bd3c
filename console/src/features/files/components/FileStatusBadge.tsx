import type { MonitoredFileStatus } from '@flightdeck/schemas';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<MonitoredFileStatus, string> = {
  pending: 'gray',
  ok: 'teal',
  changed: 'red',
  missing: 'orange',
  unreadable: 'yellow',
  too_large: 'grape',
};

export function FileStatusBadge({ status }: { status: MonitoredFileStatus }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant={status === 'changed' ? 'filled' : 'light'}
      color={COLORS[status]}
      data-testid="file-status"
      data-status={status}
      // The whole word always shows: a table column must not squeeze it to an ellipsis.
      styles={{
        root: { flexShrink: 0, maxWidth: 'none' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      }}
    >
      {t(`files.status.${status}`)}
    </Badge>
  );
}

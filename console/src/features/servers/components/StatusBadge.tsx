import type { ServerStatus } from '@flightdeck/schemas';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<ServerStatus, string> = { up: 'teal', down: 'red' };

export function StatusBadge({ status }: { status: ServerStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={COLORS[status]} data-status={status} style={{ flexShrink: 0 }}>
      {t(`servers.status.${status}`)}
    </Badge>
  );
}

import type { AlertStatus } from '@flightdeck/schemas';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS } from '../alert-view';

/** An alert status letter as a coloured badge with its name (spec 4: G, Y, R, P, B, N). */
export function AlertStatusBadge({
  status,
  size = 'sm',
}: {
  status: AlertStatus;
  size?: 'xs' | 'sm' | 'md';
}) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="filled"
      color={STATUS_COLORS[status]}
      size={size}
      data-status={status}
      style={{ flexShrink: 0 }}
    >
      {t(`alerts.status.${status}`)}
    </Badge>
  );
}

import { Badge, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS } from '../../features/alerts/alert-view';
import { useAlertEvents } from '../../features/alerts/useAlertEvents';
import { alertChipText, useOpenAlerts } from './alert-status';
import { openSidebar } from './hosts/hosts';
import classes from './Shell.module.css';

/**
 * The master-caution light (blinking red with open alerts, green without) and the chip with the
 * count of open alerts across servers (spec 2 and 9). Both open the alerts panel. Mounted once per
 * signed-in shell, it also holds the live event stream that keeps them current.
 */
export function AlertStatus() {
  const { t } = useTranslation();
  useAlertEvents();
  const { known, count, status } = useOpenAlerts();
  const alarm = count > 0;
  const text = known ? alertChipText(count, t('shell.alerts.statusOk')) : '…';
  const label = !known
    ? t('alerts.chip.unknown')
    : alarm
      ? t('shell.alerts.cautionAlarm')
      : t('shell.alerts.cautionOk');
  return (
    <>
      <UnstyledButton
        className={classes.caution}
        data-alarm={known ? alarm : 'unknown'}
        aria-label={label}
        title={label}
        onClick={() => openSidebar('open-alerts')}
        data-testid="master-caution"
      >
        <span className={classes.cautionLight} />
      </UnstyledButton>
      <Badge
        component="button"
        type="button"
        variant="light"
        color={!known ? 'gray' : alarm ? STATUS_COLORS[status] : 'teal'}
        size="lg"
        style={{ cursor: 'pointer', flexShrink: 0 }}
        onClick={() => openSidebar('open-alerts')}
        aria-label={!known ? label : alarm ? t('shell.alerts.openCount', { count }) : text}
        data-testid="alert-chip"
        data-count={known ? count : undefined}
      >
        {text}
      </Badge>
    </>
  );
}

import { Badge, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { alertChipText, useOpenAlertCount } from './alert-status';
import { openSidebar } from './hosts/hosts';
import classes from './Shell.module.css';

/**
 * The master-caution light (blinking red with open alerts, green without) and the chip with the
 * count of open alerts across servers (spec 2 and 9). Both open the alerts panel.
 */
export function AlertStatus() {
  const { t } = useTranslation();
  const count = useOpenAlertCount();
  const alarm = count > 0;
  const text = alertChipText(count, t('shell.alerts.statusOk'));
  return (
    <>
      <UnstyledButton
        className={classes.caution}
        data-alarm={alarm}
        aria-label={alarm ? t('shell.alerts.cautionAlarm') : t('shell.alerts.cautionOk')}
        title={alarm ? t('shell.alerts.cautionAlarm') : t('shell.alerts.cautionOk')}
        onClick={() => openSidebar('open-alerts')}
        data-testid="master-caution"
      >
        <span className={classes.cautionLight} />
      </UnstyledButton>
      <Badge
        component="button"
        type="button"
        variant="light"
        color={alarm ? 'red' : 'teal'}
        size="lg"
        style={{ cursor: 'pointer', flexShrink: 0 }}
        onClick={() => openSidebar('open-alerts')}
        aria-label={alarm ? t('shell.alerts.openCount', { count }) : text}
        data-testid="alert-chip"
      >
        {text}
      </Badge>
    </>
  );
}

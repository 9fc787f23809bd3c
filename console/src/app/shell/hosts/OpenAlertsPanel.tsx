import { Stack, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useOpenAlertCount } from '../alert-status';
import { Icon } from '../icons';

/** The open alerts across servers; empty until the alert engine reports one. */
export function OpenAlertsPanel() {
  const { t } = useTranslation();
  const count = useOpenAlertCount();
  return (
    <Stack align="center" ta="center" gap="xs" py="xl" data-testid="open-alerts-panel">
      <ThemeIcon size={48} radius="xl" color="teal" variant="light">
        <Icon name="check" size={26} />
      </ThemeIcon>
      <Text fw={600}>{count === 0 ? t('shell.alerts.statusOk') : t('shell.alerts.title')}</Text>
      <Text size="sm" c="dimmed">
        {t('shell.alerts.none')}
      </Text>
    </Stack>
  );
}

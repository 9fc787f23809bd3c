import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LogoMark } from './Logo';

/** Shown while the session, the plan and the menu load (spec 2, "loading screen"). */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" data-testid="loading-screen">
      <Stack align="center" gap="md">
        <LogoMark size={48} />
        <Loader type="dots" aria-label={t('common.loading')} />
        <Text size="sm" c="dimmed" aria-live="polite">
          {t('common.loading')}
        </Text>
      </Stack>
    </Center>
  );
}

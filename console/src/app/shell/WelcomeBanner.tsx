import { Anchor, Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { preferenceValue } from '../../features/preferences/api';
import { preferencesQuery } from '../../features/preferences/queries';
import { useSavePreference } from '../../features/preferences/usePreferences';
import { Icon } from './icons';

/** Spec 9: the banner waits 3 s after the shell shows. */
export const WELCOME_BANNER_DELAY_MS = 3_000;
/**
 * Where the banner's documentation link leads (VITE_DOCS_URL at build time). Without it the banner
 * points at the README that ships with every installation.
 */
const DOCS_URL: string | undefined = import.meta.env.VITE_DOCS_URL || undefined;

/**
 * The first-access banner (spec 2): a persistent dialog, 650 wide, that tells a new user to install
 * the agent and read the documentation. Closing it saves first_access_banner '0'.
 */
export function WelcomeBanner() {
  const { t } = useTranslation();
  const preferences = useQuery(preferencesQuery).data;
  const wanted = preferenceValue(preferences, 'first_access_banner') === '1';
  const [due, setDue] = useState(false);
  const [closed, setClosed] = useState(false);
  const save = useSavePreference();

  useEffect(() => {
    if (!wanted) return;
    const timer = setTimeout(() => setDue(true), WELCOME_BANNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wanted]);

  function close() {
    setClosed(true);
    save.mutate({ preference: 'first_access_banner', value: '0' });
  }

  return (
    <Modal
      opened={wanted && due && !closed}
      onClose={close}
      size={650}
      centered
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={t('shell.welcome.title')}
      data-testid="welcome-banner"
    >
      <Stack gap="md">
        <Group wrap="nowrap" align="flex-start" gap="md">
          <ThemeIcon size={44} radius="md" variant="light">
            <Icon name="rocket" size={24} />
          </ThemeIcon>
          <Stack gap="xs">
            <Text>{t('shell.welcome.body')}</Text>
            <Text size="sm" c="dimmed">
              {DOCS_URL ? (
                <>
                  {t('shell.welcome.docs')}{' '}
                  <Anchor href={DOCS_URL} target="_blank" rel="noreferrer">
                    {t('shell.welcome.docsLink')}
                  </Anchor>
                </>
              ) : (
                t('shell.welcome.docsReadme')
              )}
            </Text>
          </Stack>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to="/deploy/agent" variant="light" onClick={close}>
            {t('shell.welcome.installAgent')}
          </Button>
          <Button onClick={close} data-autofocus>
            {t('shell.welcome.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

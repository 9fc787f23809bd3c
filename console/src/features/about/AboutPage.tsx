import { Alert, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../app/refresh';
import { formatDuration } from '../../lib/format';
import { signOut } from '../auth/api';
import { sessionQuery } from '../auth/queries';
import { SystemStatus } from './components/SystemStatus';
import { UserCard } from './components/UserCard';
import { healthQuery } from './queries';

/** /about and /managements/about: who is signed in, which version runs, and how the system is doing. */
export function AboutPage() {
  const { t, i18n } = useTranslation();
  const { data: user } = useSuspenseQuery(sessionQuery);
  const health = useQuery(healthQuery);
  // The shell's auto-refresh refreshes the status too, on top of its own 10-second beat.
  useOnRefresh(() => void health.refetch());
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const signOutMutation = useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      queryClient.clear();
      await navigate({ to: '/signin', replace: true });
    },
  });

  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} fz={{ base: 'h2', sm: 'h1' }}>
        {t('about.heading')}
      </Title>
      {signOutMutation.isError && (
        <Alert color="red" variant="light" role="alert">
          {t('about.signOutFailed')}
        </Alert>
      )}
      <UserCard
        user={user}
        signingOut={signOutMutation.isPending}
        onSignOut={() => signOutMutation.mutate()}
      />
      <Card withBorder padding="lg">
        <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb="xs">
          {t('about.version')}
        </Text>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600} fz="xl" data-testid="product-version">
            {health.data ? `${t('app.name')} ${health.data.version}` : '—'}
          </Text>
          <Text size="sm" c="dimmed">
            {health.data &&
              `${t('about.uptime', { duration: formatDuration(health.data.uptime_s, i18n.language) })} · `}
            {t('about.consoleVersion', { version: __CONSOLE_VERSION__ })}
          </Text>
        </Group>
      </Card>
      <SystemStatus />
    </Stack>
  );
}

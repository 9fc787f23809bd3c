import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { sessionQuery } from '../auth/queries';
import { ChatIntegrationCards } from '../integrations/components/ChatIntegrationCards';
import './alerts-styles';
import { EmailIntegrationCard } from './components/EmailIntegrationCard';
import { PROFILE_SECTIONS, type ProfileSection } from './search';

const route = getRouteApi('/shell/managements/profile/{-$id}');

/**
 * /managements/profile/{id} (id optional): the user's profile, by section. The console has the
 * integrations section (where alert notifications go); a profile id other than the signed-in
 * user's cannot be managed here, since integrations are each user's own.
 */
export function ProfilePage() {
  const { t } = useTranslation();
  const { id } = route.useParams();
  const { section } = route.useSearch();
  const navigate = route.useNavigate();
  const user = useQuery(sessionQuery).data;
  const current: ProfileSection = section ?? 'integrations';
  const someoneElse = id !== undefined && user !== undefined && id !== String(user.user_id);

  return (
    <Stack gap="md" data-testid="profile-page">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {t('alerts.profile.heading')}
        </Title>
        {user && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {user.user_name} · {user.user_login_email}
          </Text>
        )}
      </Stack>
      {someoneElse ? (
        <Alert color="yellow" variant="light" role="alert" data-testid="profile-other-user">
          {t('alerts.profile.otherUser')}
        </Alert>
      ) : (
        <Tabs
          value={current}
          onChange={(value) =>
            void navigate({
              search: (prev) => ({ ...prev, section: (value as ProfileSection | null) ?? undefined }),
              replace: true,
            })
          }
          keepMounted={false}
        >
          <Tabs.List>
            {PROFILE_SECTIONS.map((s) => (
              <Tabs.Tab key={s} value={s} data-testid={`profile-tab-${s}`}>
                {t(`alerts.profile.sections.${s}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="integrations" pt="md">
            <Stack gap="md">
              <Text size="sm" c="dimmed">
                {t('alerts.integrations.intro')}
              </Text>
              <EmailIntegrationCard />
              <ChatIntegrationCards />
            </Stack>
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}

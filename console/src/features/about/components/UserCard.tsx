import { type AuthUser, initials } from '@flightdeck/schemas';
import { Avatar, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface UserCardProps {
  user: AuthUser;
  signingOut: boolean;
  onSignOut: () => void;
}

export function UserCard({ user, signingOut, onSignOut }: UserCardProps) {
  const { t } = useTranslation();
  const name = user.user_name.trim();
  const email = user.user_login_email;
  return (
    <Card withBorder padding="lg" data-testid="user-card">
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb="sm">
        {t('about.account')}
      </Text>
      <Group justify="space-between" gap="md" wrap="wrap">
        <Group gap="md" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 220px' }}>
          <Avatar src={user.picture || null} alt="" color="indigo" radius="xl" size={48}>
            {initials(name || (email.split('@')[0] ?? ''))}
          </Avatar>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap={8} wrap="wrap">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="user-name">
                {name || email}
              </Text>
              {user.is_admin === '1' && (
                <Badge size="xs" variant="light">
                  {t('about.admin')}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="user-email">
              {email}
            </Text>
          </Stack>
        </Group>
        <Button variant="default" onClick={onSignOut} loading={signingOut}>
          {t('about.signOut')}
        </Button>
      </Group>
    </Card>
  );
}

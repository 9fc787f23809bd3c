import { deployAllowed, initials } from '@flightdeck/schemas';
import {
  ActionIcon,
  AppShell,
  Avatar,
  Box,
  Group,
  NavLink,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signOut } from '../../features/auth/api';
import { sessionQuery } from '../../features/auth/queries';
import { menuQuery, planInfoQuery } from '../../features/plan/queries';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { Icon } from './icons';
import { MenuTree } from './menu/MenuTree';
import { filterMenu, MENU_SEARCH_MIN_LENGTH } from './menu/menu-tree';
import { menuLabel } from './page-heading';
import classes from './Shell.module.css';

interface NavDrawerProps {
  onNavigate: () => void;
  onColorSchemeChange: (scheme: 'light' | 'dark') => void;
}

/**
 * The left drawer (spec 2): a search box, the Deploy entry when the plan permits a deployment, the
 * menu tree from the server (shown once routes and plan have loaded), and the user's footer.
 */
export function NavDrawer({ onNavigate, onColorSchemeChange }: NavDrawerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const menu = useQuery(menuQuery);
  const plan = useQuery(planInfoQuery);
  const loaded = !menu.isPending && !plan.isPending;
  const searching = deferred.trim().length >= MENU_SEARCH_MIN_LENGTH;
  const items = filterMenu(menu.data ?? [], deferred, (item) => menuLabel(t, item));
  const showDeploy =
    plan.data !== undefined &&
    deployAllowed(plan.data.plataform_permitions) &&
    (!searching || t('shell.deploy').toLocaleLowerCase().includes(deferred.trim().toLocaleLowerCase()));

  return (
    <>
      <AppShell.Section p="sm" pb={4}>
        <TextInput
          type="search"
          size="sm"
          placeholder={t('shell.search.placeholder')}
          aria-label={t('shell.search.label')}
          leftSection={<Icon name="search" size={16} />}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          data-testid="menu-search"
        />
      </AppShell.Section>
      <AppShell.Section grow component={ScrollArea} px="xs" type="auto">
        <nav aria-label={t('shell.menu')} data-testid="menu">
          {!loaded && (
            <Stack gap={6} p="xs" aria-busy="true" aria-label={t('common.loading')}>
              {[0, 1, 2, 3, 4, 5].map((n) => (
                <Skeleton key={n} height={28} />
              ))}
            </Stack>
          )}
          {loaded && showDeploy && (
            <NavLink
              component={Link}
              to="/deploy"
              label={t('shell.deploy')}
              leftSection={<Icon name="rocket" size={18} />}
              onClick={onNavigate}
              data-menu-item="deploy"
            />
          )}
          {loaded && <MenuTree items={items} expandAll={searching} onNavigate={onNavigate} />}
          {loaded && items.length === 0 && !showDeploy && (
            <Text size="sm" c="dimmed" p="sm" data-testid="menu-empty">
              {searching ? t('shell.search.noMatch', { query: deferred.trim() }) : t('shell.menuEmpty')}
            </Text>
          )}
        </nav>
      </AppShell.Section>
      <AppShell.Section className={classes.drawerFooter}>
        <UserFooter onColorSchemeChange={onColorSchemeChange} onNavigate={onNavigate} />
      </AppShell.Section>
    </>
  );
}

function UserFooter({ onColorSchemeChange, onNavigate }: NavDrawerProps) {
  const { t } = useTranslation();
  const user = useQuery(sessionQuery).data;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = useMutation({
    mutationFn: signOut,
    onSettled: async () => {
      // Signed out or not, this browser forgets the session; the server drops it when it can.
      queryClient.clear();
      await navigate({ to: '/signin', replace: true });
    },
  });
  const name = user?.user_name.trim() ?? '';
  const email = user?.user_login_email ?? '';
  return (
    <Stack gap="xs" p="sm">
      <Group gap="sm" wrap="nowrap">
        <Avatar src={user?.picture || null} alt="" color="indigo" radius="xl" size={36}>
          {initials(name || (email.split('@')[0] ?? ''))}
        </Avatar>
        <Box miw={0}>
          <Text size="sm" fw={600} truncate="end" data-testid="drawer-user-name">
            {name || email}
          </Text>
          <Text size="xs" c="dimmed" truncate="end" data-testid="drawer-user-email">
            {email}
          </Text>
        </Box>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <ColorSchemeToggle onChange={onColorSchemeChange} />
        <ActionIcon
          component={Link}
          to="/managements/profile"
          variant="default"
          size={30}
          aria-label={t('shell.profile')}
          title={t('shell.profile')}
          onClick={onNavigate}
        >
          <Icon name="user" size={17} />
        </ActionIcon>
        <ActionIcon
          variant="default"
          size={30}
          aria-label={t('shell.logout')}
          title={t('shell.logout')}
          loading={logout.isPending}
          onClick={() => logout.mutate()}
          data-testid="logout"
        >
          <Icon name="logout" size={17} />
        </ActionIcon>
      </Group>
    </Stack>
  );
}

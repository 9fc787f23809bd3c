import {
  Anchor,
  Card,
  Center,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../app/shell/icons';
import { QueryError } from '../../servers/components/QueryError';
import { DeployGate } from '../components/DeployGate';
import '../deploy-styles';
import { availableServicesQuery } from './queries';
import { SERVICE_ICONS } from './services';

/**
 * /deploy/agentless: the engines the collectors can poll without an agent, as the api lists them.
 * Engines the product cannot poll yet are not offered.
 */
export function AgentlessPickerPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="agentless-picker-page">
      <Stack gap={4}>
        <Anchor component={Link} to="/deploy" size="sm">
          {t('deploy.back')}
        </Anchor>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {t('deploy.agentless.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('deploy.agentless.intro')}
        </Text>
      </Stack>
      <DeployGate kind="agentless">
        <ServiceCards />
      </DeployGate>
    </Stack>
  );
}

function ServiceCards() {
  const { t } = useTranslation();
  const services = useQuery(availableServicesQuery);
  if (services.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (services.isError) {
    return (
      <QueryError
        title={t('deploy.agentless.servicesFailed')}
        error={services.error}
        retrying={services.isFetching}
        onRetry={() => void services.refetch()}
      />
    );
  }
  if (services.data.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="agentless-no-services">
        {t('deploy.agentless.noServices')}
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      {services.data.map(({ service_code: service }) => (
        <Card
          key={service}
          withBorder
          padding="md"
          renderRoot={(props) => <Link {...props} to="/deploy/agentless/$service" params={{ service }} />}
          data-testid={`agentless-choice-${service}`}
        >
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" size="lg" aria-hidden="true">
              <Icon name={SERVICE_ICONS[service]} />
            </ThemeIcon>
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Text fw={600}>{t(`deploy.agentless.service.${service}`)}</Text>
              <Text size="sm" c="dimmed">
                {t(`deploy.agentless.choice.${service}`)}
              </Text>
            </Stack>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}

import { deployAllowed } from '@flightdeck/schemas';
import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { planInfoQuery } from '../plan/queries';
import { DeployGate } from './components/DeployGate';
import './deploy-styles';
import { AGENT_PLATFORMS, PLATFORM_PATHS } from './platforms';

/**
 * /deploy: the ways of deploying a collector the plan allows (`plataform_permitions.deploy`): the
 * agent's platforms and agentless collection, each only when the plan permits it.
 */
export function DeployPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="deploy-page">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {t('deploy.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('deploy.intro')}
        </Text>
      </Stack>
      <DeployGate>
        <DeployChoices />
      </DeployGate>
    </Stack>
  );
}

function DeployChoices() {
  const { t } = useTranslation();
  const plan = useQuery(planInfoQuery);
  const permissions = plan.data?.plataform_permitions;
  const agent = permissions ? deployAllowed(permissions, 'agent') : false;
  const agentless = permissions ? deployAllowed(permissions, 'agentless') : false;
  if (!agent && !agentless) {
    return (
      <Text size="sm" c="dimmed" data-testid="deploy-empty">
        {t('deploy.noChoices')}
      </Text>
    );
  }
  return (
    <Stack gap="lg">
      {agent && (
        <Stack gap="xs">
          <Title order={2} fz="h4">
            {t('deploy.agentHeading')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {AGENT_PLATFORMS.map((platform) => (
              <Card
                key={platform}
                withBorder
                padding="md"
                component={Link}
                to={PLATFORM_PATHS[platform]}
                data-testid={`deploy-choice-${platform}`}
              >
                <Stack gap={4}>
                  <Text fw={600}>{t(`deploy.platform.${platform}`)}</Text>
                  <Text size="sm" c="dimmed">
                    {t(`deploy.choice.${platform}`)}
                  </Text>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        </Stack>
      )}
      {agentless && (
        <Stack gap="xs">
          <Title order={2} fz="h4">
            {t('deploy.agentlessHeading')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <Card
              withBorder
              padding="md"
              component={Link}
              to="/deploy/agentless"
              data-testid="deploy-choice-agentless"
            >
              <Stack gap={4}>
                <Text fw={600}>{t('deploy.platform.agentless')}</Text>
                <Text size="sm" c="dimmed">
                  {t('deploy.choice.agentless')}
                </Text>
              </Stack>
            </Card>
          </SimpleGrid>
        </Stack>
      )}
    </Stack>
  );
}

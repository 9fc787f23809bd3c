import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../app/shell/icons';
import { errorMessage } from '../../../i18n/error-message';
import classes from '../PlanGate.module.css';
import { plansForResourceQuery } from '../queries';

/** Where "Contact Us" leads (VITE_CONTACT_URL at build time); absent = the plans page. */
const CONTACT_URL: string = import.meta.env.VITE_CONTACT_URL || '/managements/plans';

/**
 * The blocking overlay of a plan-gated page (spec 2): the feature is not available for any registered
 * service, join a plan (the plans offering the resource are listed), or contact us.
 */
export function PlanGatedOverlay({ resource }: { resource: string }) {
  const { t, i18n } = useTranslation();
  const plans = useQuery(plansForResourceQuery(resource));
  const price = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'USD' });
  return (
    <div className={classes.overlay}>
      <Paper
        withBorder
        shadow="xl"
        radius="lg"
        p={{ base: 'md', sm: 'xl' }}
        w="100%"
        maw={560}
        role="alertdialog"
        aria-modal="false"
        aria-labelledby="plan-gate-title"
        aria-describedby="plan-gate-message"
        data-testid="plan-gated-overlay"
      >
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon size={40} radius="md" variant="light" color="grape">
              <Icon name="shield" size={22} />
            </ThemeIcon>
            <Title order={2} fz="h3" id="plan-gate-title">
              {t('planGate.title')}
            </Title>
          </Group>
          <Text id="plan-gate-message">{t('planGate.message')}</Text>
          <Text fw={500}>{t('planGate.joinPlan')}</Text>

          {plans.isPending && (
            <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
              <Skeleton height={56} />
              <Skeleton height={56} />
            </Stack>
          )}
          {plans.isError && (
            <Alert color="red" variant="light" role="alert">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{errorMessage(i18n, plans.error)}</Text>
                <Button size="xs" variant="light" color="red" onClick={() => void plans.refetch()}>
                  {t('common.retry')}
                </Button>
              </Stack>
            </Alert>
          )}
          {plans.data?.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('planGate.noPlans')}
            </Text>
          )}
          {plans.data && plans.data.length > 0 && (
            <Stack
              gap="xs"
              component="ul"
              m={0}
              p={0}
              style={{ listStyle: 'none' }}
              data-testid="plan-offers"
            >
              {plans.data.map((plan) => (
                <Card key={plan.id} component="li" withBorder padding="sm">
                  <Group justify="space-between" wrap="wrap" gap={4} align="baseline">
                    <Text fw={600}>{plan.name}</Text>
                    <Text fw={600} size="sm">
                      {plan.price === 0
                        ? t('planGate.free')
                        : t('planGate.perMonth', { price: price.format(plan.price) })}
                    </Text>
                  </Group>
                  {plan.description && (
                    <Text size="sm" c="dimmed" mt={2}>
                      {plan.description}
                    </Text>
                  )}
                </Card>
              ))}
            </Stack>
          )}
          <Group justify="flex-end">
            <Anchor href={CONTACT_URL} fw={600} data-testid="contact-us">
              {t('planGate.contactUs')}
            </Anchor>
          </Group>
        </Stack>
      </Paper>
    </div>
  );
}

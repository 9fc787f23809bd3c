import { type DeployKind, deployAllowed } from '@flightdeck/schemas';
import { Alert, Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { planInfoQuery } from '../../plan/queries';
import { QueryError } from '../../servers/components/QueryError';

/**
 * Shows the page only when the plan permits the deployment (`plataform_permitions.deploy`, as the
 * drawer's Deploy entry); otherwise says the plan does not include it. The api enforces it too.
 */
export function DeployGate({ kind, children }: { kind?: DeployKind; children: ReactNode }) {
  const { t } = useTranslation();
  const plan = useQuery(planInfoQuery);
  if (plan.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (plan.isError) {
    return (
      <QueryError
        title={t('deploy.planFailed')}
        error={plan.error}
        retrying={plan.isFetching}
        onRetry={() => void plan.refetch()}
      />
    );
  }
  if (!deployAllowed(plan.data.plataform_permitions, kind)) {
    return (
      <Alert color="gray" variant="light" title={t('deploy.notInPlanTitle')} data-testid="deploy-not-in-plan">
        {t('deploy.notInPlanBody')}
      </Alert>
    );
  }
  return children;
}

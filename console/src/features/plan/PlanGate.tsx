import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageMeta } from '../../app/route-meta';
import { PlanGatedOverlay } from './components/PlanGatedOverlay';
import classes from './PlanGate.module.css';
import { availabilityQuery } from './queries';

/** The resource the current page declares, read from its search params when it declares a function. */
export function useRouteResource(): string | undefined {
  return useRouterState({
    select: (state) => {
      const leaf = state.matches.at(-1);
      const resource = (leaf?.staticData as PageMeta | undefined)?.resource;
      return typeof resource === 'function' ? resource(leaf?.search ?? {}) : resource;
    },
  });
}

/**
 * Route gating (spec 4 and 5): when the page names a resource, the plan is asked whether it is
 * available; if not, the page is blurred under a blocking overlay that lists the plans offering it.
 * A failed check is logged and lets the page show: the API enforces the plan on every call anyway.
 */
export function PlanGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const resource = useRouteResource();
  const available = useQuery({ ...availabilityQuery(resource ?? ''), enabled: resource !== undefined });
  if (available.isError) console.error('the plan check failed', resource, available.error);

  if (resource !== undefined && available.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  const gated = resource !== undefined && available.data === false;
  if (!gated) return children;
  return (
    <div className={classes.gate} data-testid="plan-gate">
      <div className={classes.blurred} inert aria-hidden="true">
        {children}
      </div>
      <PlanGatedOverlay resource={resource} />
    </div>
  );
}

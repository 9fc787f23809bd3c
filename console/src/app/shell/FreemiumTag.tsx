import { freemiumDaysLeft } from '@flightdeck/schemas';
import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { planInfoQuery } from '../../features/plan/queries';

/** The freemium tag with the whole days left of the trial (spec 9); nothing on a paid plan. */
export function FreemiumTag() {
  const { t } = useTranslation();
  const plan = useQuery(planInfoQuery).data;
  if (plan?.is_freemium !== 1) return null;
  const days =
    plan.lifetime === null ? undefined : freemiumDaysLeft(plan.register_in, plan.lifetime, Date.now() / 1000);
  const text =
    days === undefined
      ? t('shell.freemium.tag')
      : t(days === 1 ? 'shell.freemium.dayLeft' : 'shell.freemium.daysLeft', { count: days });
  return (
    <Badge
      variant="light"
      color="grape"
      size="lg"
      style={{ flexShrink: 0 }}
      data-testid="freemium-tag"
      title={text}
    >
      {text}
    </Badge>
  );
}

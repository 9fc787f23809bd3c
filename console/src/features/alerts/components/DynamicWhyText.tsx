import type { DynamicReason } from '@flightdeck/schemas';
import { Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dynamicWhy } from '../dynamic-reason';

export interface DynamicWhyTextProps {
  reason: DynamicReason;
  metric: string;
  /** The value to set against the band; null leaves it out (e.g. a resolved occurrence). */
  value: number | null;
}

/** Why a dynamic alert fired, on one dimmed line, with the algorithm in its tooltip. */
export function DynamicWhyText({ reason, metric, value }: DynamicWhyTextProps) {
  const { t, i18n } = useTranslation();
  const why = dynamicWhy(reason, metric, value, (key, vars) => t(key, vars ?? {}), i18n.language);
  return (
    <Tooltip label={why.tooltip} multiline w={320} withArrow>
      <Text
        size="xs"
        c="dimmed"
        aria-label={`${t('alerts.why.label')}: ${why.line}`}
        data-testid="alert-why"
        style={{ overflowWrap: 'anywhere' }}
      >
        {why.line}
      </Text>
    </Tooltip>
  );
}

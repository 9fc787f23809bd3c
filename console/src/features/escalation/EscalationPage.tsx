import {
  ESCALATION_SEVERITIES,
  type EscalationConfigData,
  type EscalationSeverity,
  MAX_ESCALATION_DELAY_MINUTES,
} from '@flightdeck/schemas';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../i18n/error-message';
import { QueryError } from '../servers/components/QueryError';
import { saveEscalationConfig } from './api';
import './escalation-styles';
import {
  canAddStep,
  moveRecipients,
  newStep,
  type StepValues,
  stepProblems,
  stepsOf,
  toRequest,
} from './escalation-form';
import { escalationConfigQuery, escalationKeys } from './queries';

const CHANNEL_NAMES = {
  email: 'E-mail',
  telegram: 'Telegram',
  slack: 'Slack',
  gchat: 'Google Chat',
  whatsapp: 'WhatsApp',
};

/** The options a step can name: users first, then each integration with its owner. */
function recipientOptions(config: EscalationConfigData, t: (key: string) => string) {
  const owner = new Map(config.users.map((u) => [u.id, u.name || u.email]));
  return [
    {
      group: t('escalation.users'),
      items: config.users.map((u) => ({ value: `u:${u.id}`, label: `${u.name || u.email} (${u.email})` })),
    },
    {
      group: t('escalation.integrations'),
      items: config.integrations.map((i) => ({
        value: `i:${i.id}`,
        label: `${CHANNEL_NAMES[i.channel]}: ${i.target} — ${owner.get(i.user_id) ?? i.user_id}${i.enabled ? '' : ` (${t('escalation.disabled')})`}`,
      })),
    },
  ];
}

/**
 * /flightdeck/management/escalation: the customer's escalation chain per severity (the default one,
 * and optionally one for red and one for yellow alerts). The first step is the opening notification
 * to every enabled integration; each later step tells its recipients again when the alert is still
 * open and unacknowledged after its delay. Steps can be added, removed and their recipients moved
 * up or down; saving checks the same rules as the api.
 */
export function EscalationPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const config = useQuery(escalationConfigQuery);
  const [severity, setSeverity] = useState<EscalationSeverity>('default');
  const [steps, setSteps] = useState<StepValues[]>([]);
  const [tried, setTried] = useState(false);

  useEffect(() => {
    if (config.data) setSteps(stepsOf(config.data, severity));
    setTried(false);
  }, [config.data, severity]);

  const problems = useMemo(() => stepProblems(steps), [steps]);
  const options = useMemo(() => (config.data ? recipientOptions(config.data, t) : []), [config.data, t]);

  const save = useMutation({
    mutationFn: saveEscalationConfig,
    onSuccess: (data) => {
      queryClient.setQueryData(escalationKeys.config, data);
      notifications.show({ color: 'teal', message: t('escalation.saved') });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('escalation.saveFailed'),
        message: errorMessage(i18n, error),
      }),
  });

  const update = (i: number, patch: Partial<StepValues>) =>
    setSteps((all) => all.map((s, j) => (j === i ? { ...s, ...patch } : s)));

  function submit() {
    setTried(true);
    const request = toRequest(severity, steps);
    if (request) save.mutate(request);
  }

  return (
    <Stack gap="md" data-testid="escalation-page">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {t('escalation.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('escalation.intro')}
        </Text>
      </Stack>

      <SegmentedControl
        value={severity}
        onChange={(v) => setSeverity(ESCALATION_SEVERITIES.find((s) => s === v) ?? 'default')}
        data={ESCALATION_SEVERITIES.map((s) => ({ value: s, label: t(`escalation.severity.${s}`) }))}
        data-testid="escalation-severity"
        fullWidth
        style={{ maxWidth: 520 }}
      />

      {config.isPending && <Skeleton height={160} />}
      {config.isError && (
        <QueryError
          title={t('escalation.loadFailed')}
          error={config.error}
          retrying={config.isFetching}
          onRetry={() => void config.refetch()}
        />
      )}
      {config.data && (
        <Stack gap="sm">
          <Card withBorder padding="sm" data-testid="escalation-step-1">
            <Text fw={600}>{t('escalation.stepTitle', { n: 1 })}</Text>
            <Text size="sm" c="dimmed">
              {t('escalation.openingStep')}
            </Text>
          </Card>
          {steps.map((step, i) => {
            const shown = tried ? problems[i]! : [];
            const delayProblem = shown.find((p) => p.key !== 'noRecipient');
            const recipientProblem = shown.find((p) => p.key === 'noRecipient');
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a step is its position in the chain
              <Card key={i} withBorder padding="sm" data-testid={`escalation-step-${i + 2}`}>
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={600}>{t('escalation.stepTitle', { n: i + 2 })}</Text>
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('escalation.moveUp')}
                        title={t('escalation.moveUp')}
                        disabled={i === 0}
                        onClick={() => setSteps((all) => moveRecipients(all, i, i - 1))}
                      >
                        ↑
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('escalation.moveDown')}
                        title={t('escalation.moveDown')}
                        disabled={i === steps.length - 1}
                        onClick={() => setSteps((all) => moveRecipients(all, i, i + 1))}
                      >
                        ↓
                      </ActionIcon>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        onClick={() => setSteps((all) => all.filter((_, j) => j !== i))}
                        data-testid={`escalation-remove-${i + 2}`}
                      >
                        {t('escalation.remove')}
                      </Button>
                    </Group>
                  </Group>
                  <Group align="flex-start" gap="sm" wrap="wrap">
                    <NumberInput
                      label={t('escalation.delay')}
                      description={t('escalation.delayHint')}
                      value={step.delay}
                      onChange={(v) => update(i, { delay: typeof v === 'number' ? v : '' })}
                      min={1}
                      max={MAX_ESCALATION_DELAY_MINUTES}
                      allowDecimal={false}
                      error={
                        delayProblem
                          ? t(`escalation.errors.${delayProblem.key}`, delayProblem.values)
                          : undefined
                      }
                      style={{ flex: '0 1 180px' }}
                      data-testid={`escalation-delay-${i + 2}`}
                    />
                    <MultiSelect
                      label={t('escalation.recipients')}
                      placeholder={step.recipients.length ? undefined : t('escalation.recipientsPlaceholder')}
                      data={options}
                      value={step.recipients}
                      onChange={(recipients) => update(i, { recipients })}
                      searchable
                      error={recipientProblem ? t('escalation.errors.noRecipient') : undefined}
                      style={{ flex: '1 1 260px', minWidth: 0 }}
                      comboboxProps={{ withinPortal: true }}
                      data-testid={`escalation-recipients-${i + 2}`}
                    />
                  </Group>
                </Stack>
              </Card>
            );
          })}
          <Group gap="sm">
            <Button
              variant="light"
              disabled={!canAddStep(steps)}
              onClick={() => setSteps((all) => [...all, newStep(all)])}
              data-testid="escalation-add"
            >
              {t('escalation.add')}
            </Button>
            <Button onClick={submit} loading={save.isPending} data-testid="escalation-save">
              {t('escalation.save')}
            </Button>
          </Group>
          {steps.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('escalation.noSteps')}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}

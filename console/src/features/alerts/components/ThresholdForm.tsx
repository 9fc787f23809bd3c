import {
  COMPARE_OPERATORS,
  type CompareOperator,
  MAX_THRESHOLD_FOR_S,
  metricByName,
  type Threshold,
} from '@flightdeck/schemas';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../i18n/error-message';
import { ApiError } from '../../../lib/api-client';
import { saveDefinedThreshold } from '../api';
import { metricOptions, metricTitle } from '../metric-names';
import { thresholdsKeys } from '../queries';
import {
  BOOLEAN_OPERATORS,
  type FieldError,
  type FieldErrors,
  type ThresholdField,
  type ThresholdFormValues,
  thresholdRequest,
} from '../threshold-form';

/** A metric unit as it follows a level in the form. */
const UNIT_SUFFIX: Readonly<Record<string, string>> = {
  percent: '%',
  ratio: '',
  bytes: 'B',
  bytes_per_second: 'B/s',
  per_second: '/s',
  count: '',
  seconds: 's',
  milliseconds: 'ms',
  celsius: '°C',
  days: 'd',
};

const REQUEST_FIELDS: Readonly<Record<string, ThresholdField>> = {
  metric: 'metric',
  labels: 'labels',
  operator: 'operator',
  yellow: 'yellow',
  red: 'red',
  recovery: 'recovery',
  for_s: 'forSeconds',
  server_id: 'scope',
};

/**
 * Creates a threshold, or edits one (spec 7, `defined_threshold`): scope (this server or every
 * server), metric and optional series labels, operator, yellow, red and recovery levels, how long
 * the level must hold, enabled. Each field says what is wrong in the user's language; a field the
 * server rejects is marked too.
 */
export function ThresholdForm({
  initial,
  serverId,
  serverName,
  serverCharts,
  onClose,
  onSaved,
}: {
  initial: ThresholdFormValues;
  /** The server the page shows; null when it shows every server. */
  serverId: number | null;
  serverName: string | null;
  /** Charts the server has data for: the metric list starts with those. */
  serverCharts: ReadonlySet<string> | undefined;
  onClose: () => void;
  onSaved: (threshold: Threshold) => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [everyMetric, setEveryMetric] = useState(serverCharts === undefined);
  const editing = initial.id !== undefined;

  const save = useMutation({
    mutationFn: saveDefinedThreshold,
    onSuccess: (threshold) => {
      void queryClient.invalidateQueries({ queryKey: thresholdsKeys.all });
      notifications.show({
        color: 'teal',
        message: t(editing ? 'alerts.form.updated' : 'alerts.form.created', {
          metric: metricTitle(t, threshold.metric),
        }),
      });
      onSaved(threshold);
    },
    onError: (error) => {
      const field =
        error instanceof ApiError && error.path ? REQUEST_FIELDS[String(error.path[0])] : undefined;
      if (field) setErrors({ [field]: { key: 'invalid', values: { message: error.message } } });
    },
  });

  const set = <K extends keyof ThresholdFormValues>(key: K, value: ThresholdFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const options = useMemo(
    () => metricOptions(t, everyMetric ? undefined : serverCharts, values.metric),
    [t, everyMetric, serverCharts, values.metric],
  );
  const unit = UNIT_SUFFIX[metricByName(values.metric)?.unit ?? 'count'] ?? '';
  const boolean = BOOLEAN_OPERATORS.has(values.operator);
  const message = (error: FieldError | undefined) =>
    error ? t(`alerts.form.errors.${error.key}`, error.values ?? {}) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = thresholdRequest(values, serverId);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    save.mutate(result.request);
  };

  const levelInput = (field: 'yellow' | 'red' | 'recovery') => (
    <TextInput
      label={t(`alerts.thresholds.levels.${field}`)}
      description={field === 'recovery' ? t('alerts.form.recoveryHint') : undefined}
      value={values[field]}
      onChange={(event) => set(field, event.currentTarget.value)}
      inputMode="decimal"
      rightSection={
        unit ? (
          <Text size="xs" c="dimmed">
            {unit}
          </Text>
        ) : undefined
      }
      error={message(errors[field])}
      data-testid={`threshold-${field}`}
    />
  );

  return (
    <Modal
      opened
      onClose={onClose}
      title={t(editing ? 'alerts.form.editTitle' : 'alerts.form.newTitle')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="threshold-form"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {serverId !== null ? (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="threshold-scope-label">
                {t('alerts.form.scope')}
              </Text>
              <SegmentedControl
                aria-labelledby="threshold-scope-label"
                value={values.scope}
                onChange={(scope) => set('scope', scope as 'server' | 'all')}
                data={[
                  { value: 'server', label: t('alerts.form.scopeServer', { server: serverName ?? '' }) },
                  { value: 'all', label: t('alerts.form.scopeAll') },
                ]}
                fullWidth
                data-testid="threshold-scope"
              />
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {t('alerts.form.scopeAllOnly')}
            </Text>
          )}
          <NativeSelect
            label={t('alerts.form.metric')}
            value={values.metric}
            onChange={(event) => set('metric', event.currentTarget.value)}
            data={options}
            error={message(errors.metric)}
            data-testid="threshold-metric"
          />
          {serverCharts !== undefined && (
            <Checkbox
              label={t('alerts.form.everyMetric')}
              checked={everyMetric}
              onChange={(event) => setEveryMetric(event.currentTarget.checked)}
            />
          )}
          <TextInput
            label={t('alerts.form.labels')}
            description={t('alerts.form.labelsHint')}
            placeholder="mount=/"
            value={values.labels}
            onChange={(event) => set('labels', event.currentTarget.value)}
            error={message(errors.labels)}
            data-testid="threshold-labels"
          />
          <NativeSelect
            label={t('alerts.form.operator')}
            value={values.operator}
            onChange={(event) => set('operator', event.currentTarget.value as CompareOperator)}
            data={COMPARE_OPERATORS.map((op) => ({ value: op, label: t(`alerts.operators.${op}`) }))}
            error={message(errors.operator)}
            data-testid="threshold-operator"
          />
          {boolean ? (
            <Text size="sm" c="dimmed">
              {t('alerts.form.booleanHint')}
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              {levelInput('yellow')}
              {levelInput('red')}
              {levelInput('recovery')}
            </SimpleGrid>
          )}
          <TextInput
            label={t('alerts.form.for')}
            description={t('alerts.form.forHint', { max: MAX_THRESHOLD_FOR_S })}
            value={values.forSeconds}
            onChange={(event) => set('forSeconds', event.currentTarget.value)}
            inputMode="numeric"
            rightSection={
              <Text size="xs" c="dimmed">
                s
              </Text>
            }
            error={message(errors.forSeconds)}
            data-testid="threshold-for"
          />
          <Switch
            label={t('alerts.form.enabled')}
            checked={values.enabled}
            onChange={(event) => set('enabled', event.currentTarget.checked)}
            data-testid="threshold-enabled"
          />
          {message(errors.scope) && (
            <Text size="sm" c="red">
              {message(errors.scope)}
            </Text>
          )}
          {save.isError && (
            <Alert color="red" variant="light" role="alert" title={t('alerts.form.saveFailed')}>
              <Text size="sm">{errorMessage(i18n, save.error)}</Text>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose}>
              {t('alerts.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="threshold-save">
              {t('alerts.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

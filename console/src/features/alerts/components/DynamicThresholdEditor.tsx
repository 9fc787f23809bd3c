import {
  DYNAMIC_THRESHOLD_DIRECTIONS,
  type DynamicThresholdDirection,
  type ServerThreshold,
} from '@flightdeck/schemas';
import { Button, Group, NativeSelect, SimpleGrid, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../i18n/error-message';
import {
  changeDynamicThreshold,
  type DynamicFieldError,
  type DynamicFormValues,
  dynamicChangeRequest,
  dynamicToForm,
} from '../dynamic-threshold';
import { thresholdsKeys } from '../queries';

type Errors = Partial<Record<'sensitivity' | 'forSeconds', DynamicFieldError>>;

/** The settings of a dynamic threshold under its chart: sensitivity, direction and "for" duration. */
export function DynamicThresholdEditor({ threshold }: { threshold: ServerThreshold }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<DynamicFormValues>(() => dynamicToForm(threshold));
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    setValues(dynamicToForm(threshold));
    setErrors({});
  }, [threshold]);

  const save = useMutation({
    mutationFn: changeDynamicThreshold,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: thresholdsKeys.all });
      notifications.show({ color: 'teal', message: t('alerts.dynamic.saved') });
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: t('alerts.dynamic.saveFailed'),
        message: errorMessage(i18n, error),
      });
    },
  });

  const set = <K extends keyof DynamicFormValues>(key: K, value: DynamicFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const message = (error: DynamicFieldError | undefined) =>
    error ? t(`alerts.dynamic.errors.${error.key}`, error.values) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = dynamicChangeRequest(threshold.id, values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    save.mutate(result.request);
  };

  return (
    <form onSubmit={submit} noValidate data-testid="dynamic-threshold-editor">
      <Text fw={600} size="sm" mt="sm" mb="xs">
        {t('alerts.dynamic.editTitle')}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        <TextInput
          label={t('alerts.dynamic.sensitivity')}
          description={t('alerts.dynamic.sensitivityHint')}
          value={values.sensitivity}
          onChange={(event) => set('sensitivity', event.currentTarget.value)}
          inputMode="decimal"
          error={message(errors.sensitivity)}
          data-testid="dynamic-sensitivity"
        />
        <NativeSelect
          label={t('alerts.dynamic.direction')}
          value={values.direction}
          onChange={(event) => set('direction', event.currentTarget.value as DynamicThresholdDirection)}
          data={DYNAMIC_THRESHOLD_DIRECTIONS.map((d) => ({
            value: d,
            label: t(`alerts.thresholds.directions.${d}`),
          }))}
          data-testid="dynamic-direction"
        />
        <TextInput
          label={t('alerts.dynamic.for')}
          value={values.forSeconds}
          onChange={(event) => set('forSeconds', event.currentTarget.value)}
          inputMode="numeric"
          rightSection={
            <Text size="xs" c="dimmed">
              s
            </Text>
          }
          error={message(errors.forSeconds)}
          data-testid="dynamic-for"
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button type="submit" size="xs" loading={save.isPending} data-testid="dynamic-save">
          {t('alerts.dynamic.save')}
        </Button>
      </Group>
    </form>
  );
}

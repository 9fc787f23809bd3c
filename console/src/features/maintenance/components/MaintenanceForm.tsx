import {
  Alert,
  Button,
  Checkbox,
  Chip,
  Group,
  Input,
  MultiSelect,
  SegmentedControl,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../i18n/error-message';
import { ApiError } from '../../../lib/api-client';
import { createMaintenance } from '../api';
import {
  type FormProblem,
  type MaintenanceFormValues,
  problemOfApiError,
  toMaintenanceRequest,
} from '../maintenance-form';
import { maintenanceKeys } from '../queries';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0] as const;

/** The problems each input clears when it changes. */
const FIELDS_OF: Record<keyof MaintenanceFormValues, readonly FormProblem['field'][]> = {
  allServers: ['server_ids'],
  serverIds: ['server_ids'],
  service: ['service'],
  start: ['start', 'end', 'duration', 'until'],
  endMode: ['end', 'duration'],
  end: ['end', 'duration'],
  durationMinutes: ['end', 'duration'],
  reason: ['reason'],
  recurrence: ['days', 'until', 'duration', 'end'],
  days: ['days'],
  until: ['until'],
  approved: [],
};

export interface MaintenanceFormProps {
  initial: MaintenanceFormValues;
  servers: ReadonlyArray<{ id: number; name: string }>;
  offsetMinutes: number;
  onDone: () => void;
  onCancel: () => void;
}

/**
 * The new-window form: servers (or all), an optional service, start, end or duration, reason,
 * repetition and approval. It is checked with the api's schema before it is sent; the api's
 * refusals show beside their field, translated when the page knows the message.
 */
export function MaintenanceForm({ initial, servers, offsetMinutes, onDone, onCancel }: MaintenanceFormProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(initial);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const set = <K extends keyof MaintenanceFormValues>(key: K, value: MaintenanceFormValues[K]) => {
    setValues((prev) => ({ ...prev, [key]: value }));
    // A problem stays until the next save, unless its own field is changed.
    setProblem((prev) => (prev && FIELDS_OF[key].includes(prev.field) ? null : prev));
  };

  const create = useMutation({
    mutationFn: createMaintenance,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: maintenanceKeys.all });
      notifications.show({ color: 'teal', message: t('maintenance.created') });
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'validation_failed') {
        setProblem(problemOfApiError(error));
      } else {
        setProblem({ field: 'form', key: null, message: errorMessage(i18n, error) });
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = toMaintenanceRequest(values, offsetMinutes);
    if (!result.ok) {
      setProblem(result.problem);
      return;
    }
    setProblem(null);
    create.mutate(result.request);
  };

  const text = (p: FormProblem) => (p.key ? t(p.key) : p.message);
  const errorOf = (...fields: FormProblem['field'][]) =>
    problem && fields.includes(problem.field) ? text(problem) : undefined;

  return (
    <form onSubmit={submit} noValidate data-testid="maintenance-form">
      <Stack gap="sm">
        <Switch
          label={t('maintenance.form.allServers')}
          checked={values.allServers}
          onChange={(e) => set('allServers', e.currentTarget.checked)}
          data-testid="maintenance-all-servers"
        />
        {!values.allServers && (
          <MultiSelect
            label={t('maintenance.form.servers')}
            placeholder={t('maintenance.form.serversPlaceholder')}
            data={servers.map((s) => ({ value: String(s.id), label: s.name }))}
            value={values.serverIds.map(String)}
            onChange={(ids) => set('serverIds', ids.map(Number))}
            searchable
            error={errorOf('server_ids')}
            data-testid="maintenance-servers"
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <TextInput
          label={t('maintenance.form.service')}
          description={t('maintenance.form.serviceHint')}
          value={values.service}
          onChange={(e) => set('service', e.currentTarget.value)}
          error={errorOf('service')}
          maxLength={64}
          data-testid="maintenance-service"
        />
        <TextInput
          type="datetime-local"
          label={t('maintenance.form.start')}
          value={values.start}
          onChange={(e) => set('start', e.currentTarget.value)}
          error={errorOf('start')}
          required
          data-testid="maintenance-start"
        />
        <Input.Wrapper label={t('maintenance.form.until')}>
          <SegmentedControl
            fullWidth
            value={values.endMode}
            onChange={(v) => set('endMode', v === 'end' ? 'end' : 'duration')}
            data={[
              { value: 'duration', label: t('maintenance.form.duration') },
              { value: 'end', label: t('maintenance.form.end') },
            ]}
            data-testid="maintenance-end-mode"
          />
        </Input.Wrapper>
        {values.endMode === 'end' ? (
          <TextInput
            type="datetime-local"
            label={t('maintenance.form.end')}
            value={values.end}
            onChange={(e) => set('end', e.currentTarget.value)}
            error={errorOf('end', 'duration')}
            data-testid="maintenance-end"
          />
        ) : (
          <TextInput
            type="number"
            min={1}
            label={t('maintenance.form.durationMinutes')}
            value={values.durationMinutes}
            onChange={(e) => set('durationMinutes', e.currentTarget.value)}
            error={errorOf('end', 'duration')}
            data-testid="maintenance-duration"
          />
        )}
        <Textarea
          label={t('maintenance.form.reason')}
          value={values.reason}
          onChange={(e) => set('reason', e.currentTarget.value)}
          error={errorOf('reason')}
          autosize
          minRows={2}
          maxLength={500}
          required
          data-testid="maintenance-reason"
        />
        <Input.Wrapper label={t('maintenance.form.recurrence')}>
          <SegmentedControl
            fullWidth
            value={values.recurrence}
            onChange={(v) => set('recurrence', v === 'daily' || v === 'weekly' ? v : 'none')}
            data={(['none', 'daily', 'weekly'] as const).map((kind) => ({
              value: kind,
              label: t(`maintenance.recurrence.${kind}`),
            }))}
            data-testid="maintenance-recurrence"
          />
        </Input.Wrapper>
        {values.recurrence === 'weekly' && (
          <Input.Wrapper
            label={t('maintenance.form.days')}
            description={t('maintenance.form.daysHint')}
            error={errorOf('days')}
          >
            <Chip.Group
              multiple
              value={values.days.map(String)}
              onChange={(days) => set('days', days.map(Number))}
            >
              <Group gap={6} mt={4}>
                {WEEKDAYS.map((day) => (
                  <Chip key={day} value={String(day)} size="xs">
                    {t(`maintenance.weekdays.${day}`)}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </Input.Wrapper>
        )}
        {values.recurrence !== 'none' && (
          <TextInput
            type="date"
            label={t('maintenance.form.repeatUntil')}
            description={t('maintenance.form.repeatUntilHint')}
            value={values.until}
            onChange={(e) => set('until', e.currentTarget.value)}
            error={errorOf('until')}
            data-testid="maintenance-until"
          />
        )}
        <Checkbox
          label={t('maintenance.form.approved')}
          description={t('maintenance.form.approvedHint')}
          checked={values.approved}
          onChange={(e) => set('approved', e.currentTarget.checked)}
          data-testid="maintenance-approved"
        />
        {problem?.field === 'form' && (
          <Alert color="red" variant="light" role="alert" data-testid="maintenance-form-error">
            {text(problem)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('maintenance.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending} data-testid="maintenance-save">
            {t('maintenance.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import { Button, Group, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

export interface WebhookFormProps {
  label: string;
  placeholder: string;
  submitLabel: string;
  /** The api's schema of the field, so a wrong value is refused before it is sent. */
  schema: z.ZodType<string>;
  invalidText: string;
  /** The api's refusal of the last submit, in words. */
  serverError: string | null;
  pending: boolean;
  /** Sends the value; the field empties once it was accepted (a webhook URL holds secrets). */
  onSubmit: (value: string) => Promise<unknown>;
  testId: string;
}

/** One text field and a button, checked with the api's schema before it is sent. */
export function WebhookForm(props: WebhookFormProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = props.schema.safeParse(value.trim());
    if (!parsed.success) {
      setError(props.invalidText);
      return;
    }
    setError(null);
    // A refusal shows through `serverError` (the mutation's state); only success empties the field.
    props.onSubmit(parsed.data).then(
      () => setValue(''),
      () => undefined,
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <TextInput
          label={props.label}
          placeholder={props.placeholder}
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setError(null);
          }}
          error={error ?? props.serverError}
          style={{ flex: '1 1 220px', maxWidth: 480 }}
          autoComplete="off"
          data-testid={`${props.testId}-input`}
        />
        <Button
          type="submit"
          loading={props.pending}
          mt={{ base: 0, xs: 25 }}
          data-testid={`${props.testId}-save`}
        >
          {props.submitLabel || t('integrations.save')}
        </Button>
      </Group>
    </form>
  );
}

import {
  Button,
  Checkbox,
  NativeSelect,
  PasswordInput,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldSpec, FormValues } from '../form-model';

/**
 * The config's inputs: the main ones, then the advanced ones behind a toggle. `notes` puts a note
 * right under a field (the default-port flag under the port).
 */
export function ConfigFields({
  fields,
  values,
  disabled,
  onChange,
  notes = {},
}: {
  fields: readonly FieldSpec[];
  values: FormValues;
  disabled: boolean;
  onChange: (name: string, value: string | boolean) => void;
  notes?: Partial<Record<string, ReactNode>>;
}) {
  const { t } = useTranslation();
  const [advanced, setAdvanced] = useState(false);
  const main = fields.filter((f) => !f.advanced);
  const more = fields.filter((f) => f.advanced);
  const render = (field: FieldSpec) => {
    const input = <Field field={field} value={values[field.name]} disabled={disabled} onChange={onChange} />;
    const note = notes[field.name];
    return note ? (
      <Stack key={field.name} gap={6}>
        {input}
        {note}
      </Stack>
    ) : (
      <Fragment key={field.name}>{input}</Fragment>
    );
  };
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
        {main.map(render)}
      </SimpleGrid>
      {more.length > 0 && (
        <>
          <Button
            variant="subtle"
            size="compact-sm"
            style={{ alignSelf: 'flex-start' }}
            aria-expanded={advanced}
            aria-controls="agentless-advanced"
            onClick={() => setAdvanced((v) => !v)}
            data-testid="agentless-advanced-toggle"
          >
            {t(advanced ? 'deploy.agentless.hideAdvanced' : 'deploy.agentless.showAdvanced')}
          </Button>
          {advanced && (
            <SimpleGrid id="agentless-advanced" cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
              {more.map(render)}
            </SimpleGrid>
          )}
        </>
      )}
    </Stack>
  );
}

function Field({
  field,
  value,
  disabled,
  onChange,
}: {
  field: FieldSpec;
  value: string | boolean | undefined;
  disabled: boolean;
  onChange: (name: string, value: string | boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const key = `deploy.agentless.field.${field.name.replace('.', '_')}`;
  const label = i18n.exists(key) ? t(key) : field.name;
  const hintKey = `deploy.agentless.hint.${field.name.replace('.', '_')}`;
  const description = i18n.exists(hintKey) ? t(hintKey) : undefined;
  const common = {
    label,
    description,
    disabled,
    'data-testid': `agentless-field-${field.name}`,
  };
  const text = typeof value === 'string' ? value : '';
  switch (field.kind) {
    case 'boolean':
      return (
        <Checkbox
          label={label}
          description={description}
          disabled={disabled}
          checked={value === true}
          onChange={(e) => onChange(field.name, e.currentTarget.checked)}
          data-testid={`agentless-field-${field.name}`}
          style={{ alignSelf: 'center' }}
        />
      );
    case 'password':
      return (
        <PasswordInput
          {...common}
          autoComplete="new-password"
          value={text}
          onChange={(e) => onChange(field.name, e.currentTarget.value)}
        />
      );
    case 'select':
      return (
        <NativeSelect
          {...common}
          data={[...(field.options ?? [])]}
          value={text}
          onChange={(e) => onChange(field.name, e.currentTarget.value)}
        />
      );
    case 'textarea':
      return (
        <Textarea
          {...common}
          autosize
          minRows={2}
          maxRows={8}
          value={text}
          onChange={(e) => onChange(field.name, e.currentTarget.value)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          inputMode={field.kind === 'number' ? 'numeric' : undefined}
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(e) => onChange(field.name, e.currentTarget.value)}
        />
      );
  }
}

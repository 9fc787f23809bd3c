import { Alert, Group, Loader, Stack, Text } from '@mantine/core';
import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TestState } from '../form-model';

/** The text for a failure code: the page's own wording, else the shared error's, else the code. */
export function failureText(i18n: Pick<I18n, 't' | 'exists'>, code: string): string {
  for (const key of [`deploy.agentless.failure.${code}`, `errors.${code}`]) {
    if (i18n.exists(key)) return i18n.t(key);
  }
  return i18n.t('deploy.agentless.failure.unknown', { code });
}

/** Where the connection test stands: running, passed with what answered, or failed and why. */
export function TestResult({ state, stale }: { state: TestState; stale: boolean }) {
  const { t, i18n } = useTranslation();
  if (state.phase === 'idle') return null;
  if (state.phase === 'testing') {
    return (
      <Alert color="blue" variant="light" data-testid="agentless-test-running" aria-live="polite">
        <Group gap="sm" wrap="nowrap">
          <Loader size="sm" aria-hidden="true" />
          <Text size="sm">{t('deploy.agentless.testing')}</Text>
        </Group>
      </Alert>
    );
  }
  if (state.phase === 'passed') {
    const details = Object.entries(state.details ?? {}).filter(([, v]) => v !== null && v !== '');
    return (
      <Alert
        color={stale ? 'gray' : 'green'}
        variant="light"
        title={t('deploy.agentless.testPassed')}
        data-testid="agentless-test-ok"
        data-stale={stale}
        aria-live="polite"
        styles={{ wrapper: { minWidth: 0 }, body: { minWidth: 0 } }}
      >
        <Stack gap={4}>
          {state.version && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="agentless-test-version">
              {t('deploy.agentless.version', { version: state.version })}
            </Text>
          )}
          {details.map(([key, value]) => (
            <Text key={key} size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {key}: {String(value)}
            </Text>
          ))}
          {stale && (
            <Text size="sm" fw={500} data-testid="agentless-test-stale">
              {t('deploy.agentless.stale')}
            </Text>
          )}
        </Stack>
      </Alert>
    );
  }
  return (
    <Alert
      color={stale ? 'gray' : 'red'}
      variant="light"
      role="alert"
      title={failureText(i18n, state.code)}
      data-testid="agentless-test-error"
      data-code={state.code}
      styles={{ wrapper: { minWidth: 0 }, body: { minWidth: 0 } }}
    >
      <Stack gap={4}>
        {state.message && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="agentless-test-message">
            {state.message}
          </Text>
        )}
        {stale && <Text size="sm">{t('deploy.agentless.stale')}</Text>}
      </Stack>
    </Alert>
  );
}

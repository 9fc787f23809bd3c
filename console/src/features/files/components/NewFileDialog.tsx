import type { PathTestResult, ServerSummary } from '@flightdeck/schemas';
import { Alert, Button, Group, Modal, NativeSelect, Progress, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../i18n/error-message';
import { ApiError } from '../../../lib/api-client';
import { addFile, startPathTest } from '../api';
import { pathProblem } from '../files';
import { filesKeys, pathTestQuery } from '../queries';

/** xs and sm screens get the dialog full-screen, as the shell's dialogs. */
const SMALL_SCREEN = '(max-width: 61.99em)';

/** What the agent said about the path, or where the question stands. */
function TestAnswer({ testId }: { testId: number }) {
  const { t, i18n } = useTranslation();
  const test = useQuery(pathTestQuery(testId));
  if (test.isError) {
    return (
      <Alert
        color="red"
        variant="light"
        role="alert"
        title={t('files.dialog.testFailed')}
        data-testid="path-test"
      >
        {errorMessage(i18n, test.error)}
      </Alert>
    );
  }
  const result: PathTestResult | undefined = test.data;
  if (!result || result.status === 'pending') {
    return (
      <Stack gap={6} data-testid="path-test" data-state="pending" aria-live="polite">
        <Text size="sm">{t('files.dialog.testing')}</Text>
        <Progress value={100} animated striped aria-label={t('files.dialog.testing')} />
      </Stack>
    );
  }
  if (result.status === 'ok') {
    return (
      <Alert
        color="teal"
        variant="light"
        title={t('files.dialog.testOk')}
        data-testid="path-test"
        data-state="ok"
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {result.message}
        </Text>
      </Alert>
    );
  }
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      title={t(`files.testReasons.${result.reason ?? 'error'}`)}
      data-testid="path-test"
      data-state="error"
      data-reason={result.reason ?? 'error'}
    >
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {result.message}
      </Text>
    </Alert>
  );
}

/** The message for a failed Add: the known refusals in the user's words, else the error code's. */
function addError(t: (key: string) => string, i18n: Parameters<typeof errorMessage>[0], error: unknown) {
  if (error instanceof ApiError && error.code === 'conflict') return t('files.errors.duplicate');
  if (error instanceof ApiError && error.code === 'limit_reached') return t('files.errors.limit');
  return errorMessage(i18n, error);
}

/**
 * "New critical file": choose a server, type a path, optionally ask the server's agent whether it
 * can read it ("Test path", with progress while the agent has not answered), then Add.
 */
export function NewFileDialog({
  opened,
  servers,
  defaultServerId,
  onClose,
}: {
  opened: boolean;
  servers: readonly ServerSummary[];
  defaultServerId: number | undefined;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const small = useMediaQuery(SMALL_SCREEN) ?? false;
  const [serverId, setServerId] = useState<string>('');
  const [path, setPath] = useState('');
  const [touched, setTouched] = useState(false);
  const [testId, setTestId] = useState<number | undefined>();

  const chosen = serverId || (defaultServerId ?? servers[0]?.id ?? '').toString();
  const trimmed = path.trim();
  const problem = pathProblem(trimmed);
  const showProblem = touched && problem !== undefined;

  const test = useMutation({
    mutationFn: () => startPathTest(Number(chosen), trimmed),
    onSuccess: (created) => setTestId(created.test_id),
  });
  const add = useMutation({
    mutationFn: () => addFile(Number(chosen), trimmed),
    onSuccess: (file) => {
      void queryClient.invalidateQueries({ queryKey: filesKeys.list });
      notifications.show({ color: 'teal', message: t('files.dialog.added', { path: file.path }) });
      close();
    },
  });

  function reset() {
    setPath('');
    setServerId('');
    setTouched(false);
    setTestId(undefined);
    test.reset();
    add.reset();
  }
  function close() {
    reset();
    onClose();
  }
  /** A new server or path makes the last answer stale. */
  function changed() {
    setTestId(undefined);
    test.reset();
    add.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (problem === undefined && chosen) add.mutate();
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('files.dialog.title')}
      size="lg"
      fullScreen={small}
      data-testid="files-new-dialog"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <NativeSelect
            label={t('files.dialog.server')}
            value={chosen}
            onChange={(event) => {
              setServerId(event.currentTarget.value);
              changed();
            }}
            data={servers.map((s) => ({ value: String(s.id), label: s.name }))}
            data-testid="files-new-server"
            required
          />
          <TextInput
            label={t('files.dialog.path')}
            description={t('files.dialog.pathHint')}
            placeholder={t('files.dialog.pathPlaceholder')}
            value={path}
            onChange={(event) => {
              setPath(event.currentTarget.value);
              changed();
            }}
            onBlur={() => setTouched(trimmed !== '' || touched)}
            error={showProblem ? t(`files.pathErrors.${problem}`) : undefined}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            data-testid="files-new-path"
            data-autofocus
            required
          />
          {testId !== undefined && <TestAnswer testId={testId} />}
          {test.isError && (
            <Alert color="red" variant="light" role="alert" title={t('files.dialog.testFailed')}>
              {errorMessage(i18n, test.error)}
            </Alert>
          )}
          {testId === undefined && !test.isError && (
            <Text size="xs" c="dimmed">
              {t('files.dialog.untested')}
            </Text>
          )}
          {add.isError && (
            <Alert color="red" variant="light" role="alert" data-testid="files-new-error">
              {addError(t, i18n, add.error)}
            </Alert>
          )}
          <Group justify="space-between" gap="sm">
            <Button
              variant="light"
              onClick={() => {
                setTouched(true);
                if (problem === undefined && chosen) {
                  setTestId(undefined);
                  test.mutate();
                }
              }}
              loading={test.isPending}
              disabled={!chosen}
              data-testid="files-test-path"
            >
              {t('files.dialog.test')}
            </Button>
            <Group gap="sm">
              <Button variant="default" onClick={close}>
                {t('files.cancel')}
              </Button>
              <Button type="submit" loading={add.isPending} disabled={!chosen} data-testid="files-add">
                {t('files.dialog.add')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

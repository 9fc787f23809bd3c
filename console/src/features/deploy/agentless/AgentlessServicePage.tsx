import type { PollerService, RegisterServiceData, ServersListData } from '@flightdeck/schemas';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type UseQueryResult, useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { i18n as I18n } from 'i18next';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../i18n/error-message';
import { ApiError } from '../../../lib/api-client';
import { QueryError } from '../../servers/components/QueryError';
import { serversListQuery } from '../../servers/queries';
import { DeployGate } from '../components/DeployGate';
import './agentless-styles';
import { addService, registerService } from './api';
import { ConfigFields } from './components/ConfigFields';
import { TestResult } from './components/TestResult';
import {
  canRegister,
  configFromValues,
  type FieldSpec,
  type FormValues,
  fieldsOf,
  fingerprint,
  initialValues,
  isStale,
  onDefaultPort,
} from './form-model';
import { defaultConfigQuery } from './queries';
import { serviceFromParam } from './services';
import { useConnectionTest } from './useConnectionTest';

const serviceRoute = getRouteApi('/shell/deploy/agentless/$service');
const addRoute = getRouteApi('/shell/deploy/agentless/$service/add');

/** /deploy/agentless/{service}: a new server with this service. */
export function AgentlessRegisterPage() {
  const { service } = serviceRoute.useParams();
  return <AgentlessServicePage param={service} mode="register" />;
}

/** /deploy/agentless/{service}/add: this service on a server the customer has. */
export function AgentlessAddPage() {
  const { service } = addRoute.useParams();
  return <AgentlessServicePage param={service} mode="add" />;
}

type Mode = 'register' | 'add';

function AgentlessServicePage({ param, mode }: { param: string; mode: Mode }) {
  const { t } = useTranslation();
  const service = serviceFromParam(param);
  const name = service ? t(`deploy.agentless.service.${service}`) : param;
  return (
    <Stack gap="md" data-testid="agentless-service-page" data-service={service ?? ''} data-mode={mode}>
      <Stack gap={4}>
        <Anchor component={Link} to="/deploy/agentless" size="sm">
          {t('deploy.agentless.back')}
        </Anchor>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {t(mode === 'add' ? 'deploy.agentless.addHeading' : 'deploy.agentless.registerHeading', { name })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('deploy.agentless.formIntro')}
        </Text>
        {service && (
          <Anchor
            renderRoot={(props) =>
              mode === 'add' ? (
                <Link {...props} to="/deploy/agentless/$service" params={{ service }} />
              ) : (
                <Link {...props} to="/deploy/agentless/$service/add" params={{ service }} />
              )
            }
            size="sm"
            data-testid="agentless-mode-switch"
          >
            {t(mode === 'add' ? 'deploy.agentless.toRegister' : 'deploy.agentless.toAdd')}
          </Anchor>
        )}
      </Stack>
      <DeployGate kind="agentless">
        {service ? (
          <ServiceForm key={`${service}-${mode}`} service={service} mode={mode} />
        ) : (
          <Alert color="gray" variant="light" data-testid="agentless-unknown-service">
            {t('deploy.agentless.unknownService', { service: param })}
          </Alert>
        )}
      </DeployGate>
    </Stack>
  );
}

function ServiceForm({ service, mode }: { service: PollerService; mode: Mode }) {
  const { t } = useTranslation();
  const defaults = useQuery(defaultConfigQuery(service));
  if (defaults.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (defaults.isError) {
    return (
      <QueryError
        title={t('deploy.agentless.defaultsFailed')}
        error={defaults.error}
        retrying={defaults.isFetching}
        onRetry={() => void defaults.refetch()}
      />
    );
  }
  return <LoadedForm service={service} mode={mode} defaults={defaults.data.config} />;
}

/** The message for a failed register or add: the spec's limit messages, else the shared error's. */
function saveErrorText(i18n: Pick<I18n, 't' | 'exists'>, error: unknown): string {
  if (error instanceof ApiError && error.code === 'service_limit_reached')
    return i18n.t('deploy.agentless.failure.serviceLimit');
  if (error instanceof ApiError && error.code === 'server_limit_reached')
    return i18n.t('deploy.agentless.failure.serverLimit');
  if (error instanceof ApiError && error.code === 'conflict')
    return i18n.t('deploy.agentless.failure.untested');
  return errorMessage(i18n, error);
}

function LoadedForm({
  service,
  mode,
  defaults,
}: {
  service: PollerService;
  mode: Mode;
  defaults: Record<string, unknown>;
}) {
  const { t, i18n } = useTranslation();
  const fields: FieldSpec[] = useMemo(() => fieldsOf(service, defaults), [service, defaults]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, defaults));
  const [name, setName] = useState('');
  const [serverId, setServerId] = useState('');
  const test = useConnectionTest(service);
  const config = useMemo(() => configFromValues(fields, values), [fields, values]);
  const current = fingerprint(service, config);
  const servers = useQuery({ ...serversListQuery, enabled: mode === 'add' });

  const save = useMutation({
    mutationFn: (): Promise<RegisterServiceData> =>
      mode === 'add'
        ? addService(service, Number(serverId), name, config)
        : registerService(service, name.trim(), config),
  });

  if (save.isSuccess) return <Registered service={service} ids={save.data} />;

  const testing = test.state.phase === 'testing';
  const registerable = canRegister(test.state, current);
  const nameMissing = mode === 'register' && name.trim() === '';
  const serverMissing = mode === 'add' && serverId === '';

  const defaultPortNote = onDefaultPort(values) ? (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Badge color="yellow" variant="light" style={{ flexShrink: 0 }} data-testid="agentless-default-port">
        {t('deploy.agentless.defaultPort')}
      </Badge>
      <Text size="xs" c="dimmed">
        {t('deploy.agentless.defaultPortHint')}
      </Text>
    </Group>
  ) : null;

  const onTest = (event: FormEvent) => {
    event.preventDefault();
    save.reset();
    void test.run(config, current);
  };

  return (
    <form onSubmit={onTest} noValidate data-testid="agentless-form">
      <Stack gap="md">
        <Card withBorder padding="md">
          <Stack gap="sm">
            {mode === 'add' ? (
              <ServerPicker
                servers={servers}
                value={serverId}
                onChange={setServerId}
                disabled={save.isPending}
              />
            ) : null}
            <TextInput
              label={t(mode === 'add' ? 'deploy.agentless.serviceName' : 'deploy.agentless.serverName')}
              description={t(
                mode === 'add' ? 'deploy.agentless.serviceNameHint' : 'deploy.agentless.serverNameHint',
              )}
              required={mode === 'register'}
              value={name}
              maxLength={255}
              onChange={(e) => setName(e.currentTarget.value)}
              disabled={save.isPending}
              data-testid="agentless-name"
            />
            <ConfigFields
              fields={fields}
              values={values}
              disabled={save.isPending}
              onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))}
              notes={defaultPortNote ? { port: defaultPortNote, url: defaultPortNote } : {}}
            />
          </Stack>
        </Card>

        <TestResult state={test.state} stale={isStale(test.state, current)} />

        <Group gap="sm">
          <Button type="submit" variant="default" loading={testing} data-testid="agentless-test">
            {t('deploy.agentless.test')}
          </Button>
          <Button
            type="button"
            disabled={!registerable || nameMissing || serverMissing}
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="agentless-register"
          >
            {t(mode === 'add' ? 'deploy.agentless.add' : 'deploy.agentless.register')}
          </Button>
        </Group>
        {!registerable && (
          <Text size="xs" c="dimmed" data-testid="agentless-register-hint">
            {t('deploy.agentless.registerHint')}
          </Text>
        )}
        {registerable && (nameMissing || serverMissing) && (
          <Text size="xs" c="dimmed">
            {t(nameMissing ? 'deploy.agentless.nameNeeded' : 'deploy.agentless.serverNeeded')}
          </Text>
        )}
        {save.isError && (
          <Alert
            color="red"
            variant="light"
            role="alert"
            title={t('deploy.agentless.saveFailed')}
            data-testid="agentless-save-error"
          >
            {saveErrorText(i18n, save.error)}
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          {t('deploy.agentless.startNote')}
        </Text>
      </Stack>
    </form>
  );
}

function ServerPicker({
  servers,
  value,
  onChange,
  disabled,
}: {
  servers: UseQueryResult<ServersListData>;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  if (servers.isPending) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (servers.isError) {
    return (
      <QueryError
        title={t('deploy.agentless.serversFailed')}
        error={servers.error}
        retrying={servers.isFetching}
        onRetry={() => void servers.refetch()}
      />
    );
  }
  if (servers.data.length === 0) {
    return (
      <Alert color="gray" variant="light" data-testid="agentless-no-servers">
        {t('deploy.agentless.noServers')}
      </Alert>
    );
  }
  return (
    <NativeSelect
      label={t('deploy.agentless.server')}
      required
      disabled={disabled}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={[
        { value: '', label: t('deploy.agentless.pickServer') },
        ...servers.data.map((s) => ({ value: String(s.id), label: `${s.name} (${s.hostname})` })),
      ]}
      data-testid="agentless-server"
    />
  );
}

/** After register or add: where the new service is, and when its first data comes. */
function Registered({ service, ids }: { service: PollerService; ids: RegisterServiceData }) {
  const { t } = useTranslation();
  return (
    <Alert color="green" variant="light" title={t('deploy.agentless.doneTitle')} data-testid="agentless-done">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('deploy.agentless.doneBody')}</Text>
        <Text size="sm" fw={500} data-testid="agentless-start-note">
          {t('deploy.agentless.startNote')}
        </Text>
        <Group gap="sm">
          <Button
            renderRoot={(props) => (
              <Link
                {...props}
                to="/flightdeck/services/$id/{-$service}"
                params={{ id: String(ids.server_id), service }}
              />
            )}
            data-testid="agentless-server-link"
          >
            {t('deploy.agentless.openServer')}
          </Button>
          <Button component={Link} to="/deploy/agentless" variant="default">
            {t('deploy.agentless.another')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

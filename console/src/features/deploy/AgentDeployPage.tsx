import type { AgentPackage } from '@flightdeck/schemas';
import { Anchor, Button, Group, List, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../servers/components/QueryError';
import { packageDownloadUrl } from './api';
import {
  DOCKER_BUILD,
  dockerComposeSnippet,
  dockerRunCommand,
  linuxFromPackage,
  linuxOneLiner,
  windowsCommands,
} from './commands';
import { CommandBlock } from './components/CommandBlock';
import { DeployGate } from './components/DeployGate';
import './deploy-styles';
import { DeployStep } from './components/DeployStep';
import { KeyStep } from './components/KeyStep';
import { AGENT_PLATFORMS, type AgentPlatform, PLATFORM_PATHS } from './platforms';
import { agentKeyQuery, agentPackagesQuery } from './queries';

/** /deploy/agent: the Linux install. */
export function AgentLinuxPage() {
  return <AgentDeployPage platform="linux" />;
}
/** /deploy/agent/docker: the agent container. */
export function AgentDockerPage() {
  return <AgentDeployPage platform="docker" />;
}
/** /deploy/agent/windows: the Windows install. */
export function AgentWindowsPage() {
  return <AgentDeployPage platform="windows" />;
}

/**
 * The agent's install steps for one platform: the access key, the commands with the key filled in
 * (or a placeholder once it is no longer shown), the downloads, and what happens next.
 */
function AgentDeployPage({ platform }: { platform: AgentPlatform }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap="md" data-testid="deploy-agent-page" data-platform={platform}>
      <Stack gap={4}>
        <Anchor component={Link} to="/deploy" size="sm">
          {t('deploy.back')}
        </Anchor>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {t('deploy.agent.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('deploy.agent.intro')}
        </Text>
      </Stack>
      <DeployGate kind="agent">
        <Tabs
          value={platform}
          onChange={(value) => {
            const next = AGENT_PLATFORMS.find((p) => p === value);
            if (next) void navigate({ to: PLATFORM_PATHS[next] });
          }}
          keepMounted={false}
        >
          <Tabs.List aria-label={t('deploy.agent.platforms')}>
            {AGENT_PLATFORMS.map((p) => (
              <Tabs.Tab key={p} value={p} data-testid={`deploy-tab-${p}`}>
                {t(`deploy.platform.${p}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value={platform} pt="md">
            <Stack component="ol" gap="md" p={0} m={0}>
              <DeployStep step={1} title={t('deploy.key.title')} testId="deploy-step-key">
                <KeyStep />
              </DeployStep>
              {platform === 'linux' && <LinuxSteps />}
              {platform === 'docker' && <DockerSteps />}
              {platform === 'windows' && <WindowsSteps />}
            </Stack>
          </Tabs.Panel>
        </Tabs>
        <InstallNotes />
      </DeployGate>
    </Stack>
  );
}

/** The address and key the commands use: the key only while it is shown, else the placeholder. */
function useCommandInputs() {
  const key = useQuery(agentKeyQuery);
  const packages = useQuery(agentPackagesQuery);
  const url = packages.data?.server_url ?? window.location.origin;
  return { url, key: key.data?.key ?? null, packages };
}

function KeyHint({ keyShown }: { keyShown: boolean }) {
  const { t } = useTranslation();
  if (keyShown) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="deploy-key-placeholder-hint">
      {t('deploy.placeholderHint')}
    </Text>
  );
}

function LinuxSteps() {
  const { t } = useTranslation();
  const { url, key, packages } = useCommandInputs();
  return (
    <>
      <DeployStep step={2} title={t('deploy.linux.installTitle')} testId="deploy-step-install">
        <Text size="sm">{t('deploy.linux.installBody')}</Text>
        <KeyHint keyShown={key !== null} />
        <CommandBlock
          label={t('deploy.linux.oneLiner')}
          value={linuxOneLiner(url, key)}
          testId="deploy-linux-command"
        />
      </DeployStep>
      <DeployStep step={3} title={t('deploy.linux.downloadTitle')} testId="deploy-step-download">
        <Text size="sm">{t('deploy.linux.downloadBody')}</Text>
        <Downloads packages={packages} items={[{ name: 'linux-x64', path: 'linux-x64' }]} />
        <CommandBlock
          label={t('deploy.linux.fromPackage')}
          value={linuxFromPackage(url, key)}
          testId="deploy-linux-package-command"
        />
      </DeployStep>
      <NextStep step={4} />
    </>
  );
}

function DockerSteps() {
  const { t } = useTranslation();
  const { url, key } = useCommandInputs();
  return (
    <>
      <DeployStep step={2} title={t('deploy.docker.imageTitle')} testId="deploy-step-image">
        <Text size="sm">{t('deploy.docker.imageBody')}</Text>
        <CommandBlock label={t('deploy.docker.build')} value={DOCKER_BUILD} testId="deploy-docker-build" />
      </DeployStep>
      <DeployStep step={3} title={t('deploy.docker.runTitle')} testId="deploy-step-install">
        <Text size="sm">{t('deploy.docker.runBody')}</Text>
        <KeyHint keyShown={key !== null} />
        <CommandBlock
          label={t('deploy.docker.run')}
          value={dockerRunCommand(url, key)}
          testId="deploy-docker-run"
        />
        <CommandBlock
          label={t('deploy.docker.compose')}
          value={dockerComposeSnippet(url, key)}
          testId="deploy-docker-compose"
        />
      </DeployStep>
      <NextStep step={4} />
    </>
  );
}

function WindowsSteps() {
  const { t } = useTranslation();
  const { url, key, packages } = useCommandInputs();
  return (
    <>
      <DeployStep step={2} title={t('deploy.windows.installTitle')} testId="deploy-step-install">
        <Text size="sm">{t('deploy.windows.installBody')}</Text>
        <KeyHint keyShown={key !== null} />
        <CommandBlock
          label={t('deploy.windows.powershell')}
          value={windowsCommands(url, key)}
          testId="deploy-windows-command"
        />
      </DeployStep>
      <DeployStep step={3} title={t('deploy.windows.downloadTitle')} testId="deploy-step-download">
        <Text size="sm">{t('deploy.windows.downloadBody')}</Text>
        <Downloads
          packages={packages}
          items={[
            { name: 'windows-x64', path: 'windows-x64' },
            { name: 'windows-x64', path: 'windows-x64/install.ps1', fileName: 'install.ps1' },
          ]}
        />
      </DeployStep>
      <NextStep step={4} />
    </>
  );
}

interface DownloadItem {
  name: AgentPackage['name'];
  path: Parameters<typeof packageDownloadUrl>[0];
  fileName?: string;
}

/** A long file name wraps inside its button on a narrow screen instead of being cut. */
const WRAPPING_BUTTON = {
  root: { height: 'auto', minHeight: 36, maxWidth: '100%' },
  label: { whiteSpace: 'normal', overflowWrap: 'anywhere', paddingBlock: 6 },
} as const;

/** Download buttons; disabled with the reason when this server has not built the package. */
function Downloads({
  packages,
  items,
}: {
  packages: ReturnType<typeof useCommandInputs>['packages'];
  items: DownloadItem[];
}) {
  const { t } = useTranslation();
  if (packages.isPending) return <Skeleton height={36} width={240} aria-label={t('common.loading')} />;
  if (packages.isError) {
    return (
      <QueryError
        title={t('deploy.packagesFailed')}
        error={packages.error}
        retrying={packages.isFetching}
        onRetry={() => void packages.refetch()}
      />
    );
  }
  const missing = items.some((item) => !packages.data.packages.find((p) => p.name === item.name)?.available);
  return (
    <Stack gap="xs">
      <Group gap="sm">
        {items.map((item) => {
          const pkg = packages.data.packages.find((p) => p.name === item.name);
          const fileName = item.fileName ?? pkg?.file_name ?? item.name;
          return pkg?.available ? (
            <Button
              key={item.path}
              component="a"
              href={packageDownloadUrl(item.path)}
              download={fileName}
              variant="light"
              styles={WRAPPING_BUTTON}
              data-testid={`deploy-download-${item.path}`}
            >
              {t('deploy.download', { file: fileName })}
            </Button>
          ) : (
            <Button
              key={item.path}
              disabled
              variant="light"
              styles={WRAPPING_BUTTON}
              data-testid={`deploy-download-${item.path}`}
            >
              {t('deploy.download', { file: fileName })}
            </Button>
          );
        })}
      </Group>
      {missing && (
        <Text size="sm" c="dimmed" data-testid="deploy-not-built">
          {t('deploy.notBuilt')}
        </Text>
      )}
    </Stack>
  );
}

function NextStep({ step }: { step: number }) {
  const { t } = useTranslation();
  return (
    <DeployStep step={step} title={t('deploy.next.title')} testId="deploy-step-next">
      <Text size="sm">{t('deploy.next.body')}</Text>
      <Group>
        <Button component={Link} to="/flightdeck/services" variant="default" data-testid="deploy-hosts-link">
          {t('deploy.next.hosts')}
        </Button>
      </Group>
    </DeployStep>
  );
}

function InstallNotes() {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Title order={2} fz="h5">
        {t('deploy.notes.title')}
      </Title>
      <List size="sm" c="dimmed" spacing={4}>
        <List.Item>{t('deploy.notes.oneInstall')}</List.Item>
        <List.Item>{t('deploy.notes.oneKey')}</List.Item>
      </List>
    </Stack>
  );
}

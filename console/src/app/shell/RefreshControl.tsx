import { DEFAULT_REFRESH_INTERVAL, REFRESH_INTERVALS } from '@flightdeck/schemas';
import { ActionIcon, Group, NativeSelect, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../lib/store';
import { refresh, useRefreshState } from '../refresh';
import type { ShellSearch } from '../time-range';
import { Icon } from './icons';
import { timeControlsStore } from './route-effects';

/**
 * Auto-refresh control (spec 4): play/pause toggles RUNNING and PAUSED, the select picks 1, 5, 10,
 * 15 or 30 minutes, and the last refresh time shows beside it. Hidden below 960 px by the top bar.
 */
export function RefreshControl({ search }: { search: ShellSearch }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { state, interval, lastUpdate } = useRefreshState();
  const enabled = useStore(timeControlsStore).refresh;
  const off = !enabled || state === 'DISABLED';
  const running = !off && state === 'RUNNING';
  const toggleLabel = off
    ? t('shell.refresh.disabled')
    : running
      ? t('shell.refresh.pause')
      : t('shell.refresh.play');
  return (
    <Group gap={6} wrap="nowrap" data-testid="refresh-control" data-state={off ? 'DISABLED' : state}>
      <ActionIcon
        variant={running ? 'light' : 'default'}
        size={30}
        disabled={off}
        aria-label={toggleLabel}
        title={toggleLabel}
        onClick={() => refresh.dispatch('toggle')}
      >
        <Icon name={running ? 'pause' : 'play'} size={16} />
      </ActionIcon>
      <NativeSelect
        size="xs"
        w={92}
        disabled={off}
        aria-label={t('shell.refresh.interval')}
        value={String(search.interval ?? interval)}
        data={REFRESH_INTERVALS.map((seconds) => ({
          value: String(seconds),
          label: t('shell.refresh.minutes', { count: seconds / 60 }),
        }))}
        onChange={(event) => {
          const seconds = Number(event.currentTarget.value);
          void navigate({
            to: '.',
            search: (prev: ShellSearch) => ({
              ...prev,
              interval: seconds === DEFAULT_REFRESH_INTERVAL ? undefined : seconds,
            }),
            replace: true,
          } as never);
        }}
      />
      <Text size="xs" c="dimmed" miw={64} aria-live="off" data-testid="last-update">
        {lastUpdate ? new Date(lastUpdate).toLocaleTimeString(i18n.language, { timeStyle: 'short' }) : '—'}
      </Text>
    </Group>
  );
}

import { ActionIcon } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShellSearch } from '../time-range';
import { Icon } from './icons';

function requestFullscreen(): void {
  // Browsers refuse it without a user gesture (a link opened with ?tv=1): the page still shows TV mode.
  document.documentElement.requestFullscreen?.().catch(() => undefined);
}

function exitFullscreen(): void {
  if (document.fullscreenElement) document.exitFullscreen?.().catch(() => undefined);
}

/** Asks for fullscreen when a page opens in TV mode (`?tv=1`). */
export function useTvFullscreen(tv: boolean): void {
  useEffect(() => {
    if (tv) requestFullscreen();
  }, [tv]);
}

/** TV mode (spec 2): hides the drawer, sidebar and breadcrumbs and goes fullscreen. Kept in `?tv=1`. */
export function TvModeToggle({ search }: { search: ShellSearch }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tv = search.tv === 1;
  const label = tv ? t('shell.tv.exit') : t('shell.tv.enter');
  return (
    <ActionIcon
      variant={tv ? 'filled' : 'default'}
      size={30}
      aria-label={label}
      title={label}
      aria-pressed={tv}
      data-testid="tv-toggle"
      onClick={() => {
        if (tv) exitFullscreen();
        else requestFullscreen();
        void navigate({
          to: '.',
          search: (prev: ShellSearch) => ({ ...prev, tv: tv ? undefined : 1 }),
        } as never);
      }}
    >
      <Icon name={tv ? 'tvOff' : 'tv'} size={17} />
    </ActionIcon>
  );
}

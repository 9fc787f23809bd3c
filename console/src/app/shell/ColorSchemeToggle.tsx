import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Flips between light and dark; the choice is remembered by Mantine's colour-scheme manager. The
 * shell passes `onChange` to also save it as the user's preference.
 */
export function ColorSchemeToggle({ onChange }: { onChange?: (scheme: 'light' | 'dark') => void }) {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const isDark = computed === 'dark';
  const label = isDark ? t('common.switchToLight') : t('common.switchToDark');
  return (
    <ActionIcon
      variant="default"
      size={30}
      aria-label={label}
      title={label}
      data-testid="color-scheme-toggle"
      onClick={() => {
        const next = isDark ? 'light' : 'dark';
        setColorScheme(next);
        onChange?.(next);
      }}
    >
      {isDark ? <SunIcon /> : <MoonIcon />}
    </ActionIcon>
  );
}

function SunIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z" />
    </svg>
  );
}

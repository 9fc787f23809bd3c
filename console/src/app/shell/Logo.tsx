import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The product mark: a paper plane climbing out of a rounded square. Decorative next to the name. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--mantine-primary-color-filled)" />
      <path d="M6 19.5 26 9l-5.5 15-4.5-5.5-5 3 1.5-5.5z" fill="#fff" />
      <path
        d="M11 21.5 26 9 16 18.5"
        fill="none"
        stroke="var(--mantine-primary-color-filled)"
        strokeWidth="1.2"
      />
    </svg>
  );
}

export function Logo({ size = 32 }: { size?: number }) {
  const { t } = useTranslation();
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} />
      <Text component="span" fw={700} fz={size * 0.6} lh={1} style={{ letterSpacing: '-0.01em' }}>
        {t('app.name')}
      </Text>
    </Group>
  );
}

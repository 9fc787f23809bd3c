import { Box, Button, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../app/shell/icons';

/**
 * A command (or file) to paste, with a copy button. The text keeps its lines and scrolls sideways
 * inside its box on a narrow screen; the box takes focus so the keyboard can scroll it.
 */
export function CommandBlock({
  label,
  value,
  testId,
  wrap = false,
}: {
  label: string;
  value: string;
  testId: string;
  /** Break a long single token (the key) across lines instead of scrolling. */
  wrap?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <Icon name="check" size={14} /> : undefined}
              onClick={copy}
              aria-label={`${copied ? t('deploy.copied') : t('deploy.copy')}: ${label}`}
              data-testid={`${testId}-copy`}
            >
              {copied ? t('deploy.copied') : t('deploy.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Box
        component="pre"
        tabIndex={0}
        aria-label={label}
        data-testid={testId}
        m={0}
        p="sm"
        fz="xs"
        style={{
          overflowX: 'auto',
          whiteSpace: wrap ? 'pre-wrap' : 'pre',
          overflowWrap: wrap ? 'anywhere' : 'normal',
          borderRadius: 'var(--mantine-radius-sm)',
          background: 'var(--mantine-color-default-hover)',
          fontFamily: 'var(--mantine-font-family-monospace)',
        }}
      >
        {value}
      </Box>
    </Stack>
  );
}

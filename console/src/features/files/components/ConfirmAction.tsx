import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What a confirmation asks about: equalize or remove one file. */
export interface PendingAction {
  kind: 'equalize' | 'remove';
  file: { id: number; path: string; server_name: string };
}

/** Asks before an action that cannot be undone; Enter confirms, Escape cancels. */
export function ConfirmAction({
  action,
  busy,
  onConfirm,
  onCancel,
}: {
  action: PendingAction | null;
  busy: boolean;
  onConfirm: (action: PendingAction) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const key = action?.kind === 'remove' ? 'files.removeConfirm' : 'files.equalizeConfirm';
  const vars = { path: action?.file.path ?? '', server: action?.file.server_name ?? '' };
  return (
    <Modal
      opened={action !== null}
      onClose={onCancel}
      title={t(`${key}.title`)}
      centered
      data-testid="files-confirm"
    >
      <Stack gap="md">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t(`${key}.body`, vars)}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('files.cancel')}
          </Button>
          <Button
            color={action?.kind === 'remove' ? 'red' : undefined}
            loading={busy}
            onClick={() => action && onConfirm(action)}
            data-autofocus
            data-testid="files-confirm-button"
          >
            {t(`${key}.confirm`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

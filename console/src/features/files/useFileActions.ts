import type { MonitoredFile } from '@flightdeck/schemas';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../i18n/error-message';
import { equalizeFile, removeFile } from './api';
import { filesKeys } from './queries';

type FileRef = Pick<MonitoredFile, 'id' | 'path'>;

/**
 * Equalize and Remove of one file: each refreshes the list and the open details, and says in a
 * toast what happened (or why it failed).
 */
export function useFileActions(options: { onRemoved?: (id: number) => void } = {}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const failed = (error: unknown) => {
    console.error('a critical-file action failed', error);
    notifications.show({ color: 'red', title: t('files.actionFailed'), message: errorMessage(i18n, error) });
  };

  const equalize = useMutation({
    mutationFn: (file: FileRef) => equalizeFile(file.id),
    onSuccess: (detail, file) => {
      queryClient.setQueryData(filesKeys.file(file.id), detail);
      void queryClient.invalidateQueries({ queryKey: filesKeys.list });
      notifications.show({ color: 'teal', message: t('files.equalized', { path: file.path }) });
    },
    onError: failed,
  });

  const remove = useMutation({
    mutationFn: (file: FileRef) => removeFile(file.id),
    onSuccess: (_data, file) => {
      queryClient.removeQueries({ queryKey: filesKeys.file(file.id) });
      void queryClient.invalidateQueries({ queryKey: filesKeys.list });
      notifications.show({ color: 'teal', message: t('files.removed', { path: file.path }) });
      options.onRemoved?.(file.id);
    },
    onError: failed,
  });

  return { equalize, remove };
}

import type { SetAcknowledgeRequest } from '@flightdeck/schemas';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { setAcknowledge } from './api';
import { alertsKeys } from './queries';

/** Acknowledges one alert; the chip, lists and history refresh, and a toast says for how long. */
export function useAcknowledge() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SetAcknowledgeRequest) => setAcknowledge(request),
    onSuccess: (_item, request) => {
      void queryClient.invalidateQueries({ queryKey: alertsKeys.all });
      notifications.show({ color: 'teal', message: t('alerts.ack.done', { count: request.hours }) });
    },
  });
}

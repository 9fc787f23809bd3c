import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { followAlertEvents } from './events';
import { alertsKeys } from './queries';

/** Events arriving within this window refresh the alert queries once. */
const COALESCE_MS = 300;

/**
 * Opens `GET /api/events` once for the signed-in shell and refreshes everything under `['alerts']`
 * (chip, master warning, history) on each `alert` event and after a reconnection; the stream closes
 * when the shell goes (sign-out). A burst of events refreshes once.
 */
export function useAlertEvents(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let pending: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      if (pending !== null) return;
      pending = setTimeout(() => {
        pending = null;
        void queryClient.invalidateQueries({ queryKey: alertsKeys.all });
      }, COALESCE_MS);
    };
    const stop = followAlertEvents({
      open: () => new EventSource('/api/events', { withCredentials: true }),
      onAlert: refresh,
      onReconnect: refresh,
      onInvalid: (reason) => console.warn(`alert event ignored: ${reason}`),
    });
    return () => {
      stop();
      if (pending !== null) clearTimeout(pending);
    };
  }, [queryClient]);
}

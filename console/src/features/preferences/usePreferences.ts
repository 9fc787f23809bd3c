import type { PreferenceList, SetPreferenceRequest } from '@flightdeck/schemas';
import { useMantineColorScheme } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { setLocale } from '../../i18n';
import { errorMessage } from '../../i18n/error-message';
import { isLocale } from '../../i18n/locale';
import { preferenceValue, savePreference } from './api';
import { preferencesQuery } from './queries';

/**
 * On sign-in the server's dark_mode and locale win over what this browser remembered (spec 4):
 * they are applied once, as soon as the preferences arrive.
 */
export function useRestorePreferences(): void {
  const { data } = useQuery(preferencesQuery);
  const { setColorScheme } = useMantineColorScheme();
  const applied = useRef(false);
  useEffect(() => {
    if (!data || applied.current) return;
    applied.current = true;
    const dark = preferenceValue(data, 'dark_mode');
    if (dark === '1') setColorScheme('dark');
    else if (dark === '0') setColorScheme('light');
    const locale = preferenceValue(data, 'locale');
    if (isLocale(locale)) void setLocale(locale);
  }, [data, setColorScheme]);
}

function upsert(list: PreferenceList | undefined, body: SetPreferenceRequest): PreferenceList {
  const rest = (list ?? []).filter((entry) => entry.preference !== body.preference);
  return [...rest, { preference: body.preference, value: body.value }];
}

/** Saves one preference; the cached list follows at once, and a failure shows an error toast. */
export function useSavePreference() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePreference,
    onMutate: (body) => {
      queryClient.setQueryData(preferencesQuery.queryKey, (list) => upsert(list, body));
    },
    onError: (error) => {
      console.error('saving a preference failed', error);
      notifications.show({
        color: 'red',
        title: t('shell.preferenceFailed'),
        message: errorMessage(i18n, error),
      });
    },
  });
}

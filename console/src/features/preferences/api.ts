import { PreferenceList, type SetPreferenceRequest } from '@flightdeck/schemas';
import { z } from 'zod';
import { api } from '../../lib/api-client';

/** Every preference of the signed-in user (dark_mode, locale, first_access_banner, timezone...). */
export function fetchPreferences() {
  return api.post('/user/get_preference', {}, PreferenceList);
}

export function savePreference(body: SetPreferenceRequest) {
  return api.post('/user/set_preference', body, z.unknown());
}

/** The value of one preference in a list, undefined when the user never set it. */
export function preferenceValue(list: PreferenceList | undefined, name: string): string | undefined {
  return list?.find((entry) => entry.preference === name)?.value;
}

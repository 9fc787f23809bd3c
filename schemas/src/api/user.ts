import { z } from 'zod';
import { PREFERENCE_NAMES, type PreferenceName, USER_LOCALES, UserPreference } from './auth';

/** A preference name of `PREFERENCE_NAMES` (type `PreferenceName`); any other is refused naming the field. */
export const PreferenceNameField = z.enum(PREFERENCE_NAMES, {
  error: `expected one of ${PREFERENCE_NAMES.join(', ')}`,
});

/** A UTC offset as the spec writes it: `+HH:MM` or `-HH:MM`, from -12:00 to +14:00. */
export const UTC_OFFSET_RE = /^[+-](0\d|1[0-4]):[0-5]\d$/;

function isTimeZone(value: string): boolean {
  // A name, not an offset: Intl accepts offsets too, and those belong in utc_offset.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `value` does not fit `preference`, or undefined when it does: dark_mode and
 * first_access_banner are '0' or '1', locale one of `USER_LOCALES`, utc_offset `±HH:MM`, timezone
 * an IANA name the runtime's Intl knows (`UTC`, `America/Sao_Paulo`).
 */
export function preferenceValueProblem(preference: PreferenceName, value: string): string | undefined {
  switch (preference) {
    case 'dark_mode':
    case 'first_access_banner':
      return value === '0' || value === '1' ? undefined : `expected '0' or '1' for ${preference}`;
    case 'locale':
      return (USER_LOCALES as readonly string[]).includes(value)
        ? undefined
        : `expected one of ${USER_LOCALES.join(', ')} for locale`;
    case 'utc_offset':
      return UTC_OFFSET_RE.test(value) ? undefined : 'expected an offset such as +00:00 or -03:00';
    case 'timezone':
      return isTimeZone(value) ? undefined : 'expected a time zone name such as UTC or America/Sao_Paulo';
  }
}

/**
 * `POST /api/user/set_preference` (also `/user/set_user_preference`) body. The value is checked
 * for its preference (`preferenceValueProblem`); setting `locale` also sets the user's locale.
 */
export const SetPreferenceRequest = z
  .object({ preference: PreferenceNameField, value: z.string().max(64) })
  .strict()
  .superRefine((body, ctx) => {
    const problem = preferenceValueProblem(body.preference, body.value);
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  });
export type SetPreferenceRequest = z.infer<typeof SetPreferenceRequest>;

/**
 * `POST /api/user/get_preference` (also `/user/get_user_preference`) body: one preference, or all
 * of them when `preference` is absent. Answers `PreferenceList`.
 */
export const GetPreferenceRequest = z.object({ preference: PreferenceNameField.optional() }).strict();
export type GetPreferenceRequest = z.infer<typeof GetPreferenceRequest>;

/** The signed-in user's preferences, ordered by name; a preference never set is absent. */
export const PreferenceList = z.array(UserPreference);
export type PreferenceList = z.infer<typeof PreferenceList>;

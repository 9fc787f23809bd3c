import {
  GetPreferenceRequest,
  type OkEnvelope,
  type PreferenceList,
  SetPreferenceRequest,
  type UserPreference,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import { requireSession } from '../../auth/middleware';
import { getUserPreferences, setUserLocale, setUserPreference } from '../../db/queries/users';
import type { AppDeps, AppEnv } from '../../env';
import { jsonBody } from '../../http/body';

/**
 * The signed-in user's own settings (spec section 7, "Auth and user"). Every call needs a session
 * and acts on that session's user of that session's customer only.
 */
export function userRoutes(deps: AppDeps) {
  const { db } = deps;
  const factory = createFactory<AppEnv>();
  const session = requireSession(db);

  const setPreference = factory.createHandlers(session, jsonBody(SetPreferenceRequest), async (c) => {
    const { preference, value } = c.req.valid('json');
    const { customerId, userId } = c.var.session;
    await db.transaction().execute(async (trx) => {
      await setUserPreference(trx, customerId, userId, preference, value);
      // The user's language is also a column: mails and the session check read it there.
      if (preference === 'locale') await setUserLocale(trx, customerId, userId, value);
    });
    return c.json({ status: 'ok', data: { preference, value } } satisfies OkEnvelope<UserPreference>);
  });

  const getPreference = factory.createHandlers(session, jsonBody(GetPreferenceRequest), async (c) => {
    const { preference } = c.req.valid('json');
    const { customerId, userId } = c.var.session;
    const data = await getUserPreferences(db, customerId, userId, preference);
    return c.json({ status: 'ok', data } satisfies OkEnvelope<PreferenceList>);
  });

  // The spec names each call twice; both paths behave the same.
  return new Hono<AppEnv>()
    .post('/user/set_preference', ...setPreference)
    .post('/user/set_user_preference', ...setPreference)
    .post('/user/get_preference', ...getPreference)
    .post('/user/get_user_preference', ...getPreference);
}

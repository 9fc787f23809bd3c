import { AuthUser, PreferenceList, SigninData, UserPreference } from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createTestApp, expectError, expectOk, post, type TestApp } from '../auth/test-app';

let base: TestApp;
let alice: string;
let bruno: string;

async function signin(email: string) {
  return (
    await expectOk(await post(base.app, '/api/signin', { email, password: 'password-123' }), SigninData)
  ).data.token;
}

beforeAll(async () => {
  base = await createTestApp();
  await createAccount(base.t.db, 'alice@a.example', 'password-123');
  await createAccount(base.t.db, 'bruno@b.example', 'password-123');
  alice = await signin('alice@a.example');
  bruno = await signin('bruno@b.example');
});
afterAll(async () => {
  await base?.drop();
});

const set = (token: string, preference: string, value: string, call = 'set_preference') =>
  post(base.app, `/api/user/${call}`, { preference, value }, token);
const get = (token: string, body: Record<string, unknown> = {}, call = 'get_preference') =>
  post(base.app, `/api/user/${call}`, body, token);

describe('user preferences', () => {
  it('sets and reads preferences, one or all, through both call names', async () => {
    const res = await expectOk(await set(alice, 'dark_mode', '1'), UserPreference);
    expect(res.data).toEqual({ preference: 'dark_mode', value: '1' });
    await expectOk(await set(alice, 'timezone', 'America/Sao_Paulo', 'set_user_preference'), UserPreference);
    await expectOk(await set(alice, 'utc_offset', '-03:00'), UserPreference);
    await expectOk(await set(alice, 'first_access_banner', '0'), UserPreference);
    await expectOk(await set(alice, 'dark_mode', '0'), UserPreference);

    const all = await expectOk(await get(alice), PreferenceList);
    expect(all.data).toEqual([
      { preference: 'dark_mode', value: '0' },
      { preference: 'first_access_banner', value: '0' },
      { preference: 'timezone', value: 'America/Sao_Paulo' },
      { preference: 'utc_offset', value: '-03:00' },
    ]);
    const one = await expectOk(
      await get(alice, { preference: 'timezone' }, 'get_user_preference'),
      PreferenceList,
    );
    expect(one.data).toEqual([{ preference: 'timezone', value: 'America/Sao_Paulo' }]);
    const unset = await expectOk(await get(alice, { preference: 'locale' }), PreferenceList);
    expect(unset.data).toEqual([]);
  });

  it("sets the user's locale along with the locale preference", async () => {
    await expectOk(await set(alice, 'locale', 'es'), UserPreference);
    const check = await base.app.request('/api/auth/flightdeck/check', {
      headers: { Authorization: `Bearer ${alice}` },
    });
    const user = (await expectOk(check, AuthUser)).data;
    expect(user.locale).toBe('es');
    expect(user.preferences).toContainEqual({ preference: 'locale', value: 'es' });
  });

  it('refuses unknown preferences and values that do not fit, naming the field', async () => {
    const unknown = await expectError(await set(alice, 'font_size', '12'), 400, 'validation_failed');
    expect(unknown.path).toEqual(['preference']);
    expect(unknown.message).toMatch(/^preference: expected one of dark_mode/);
    const cases: [string, string][] = [
      ['dark_mode', 'yes'],
      ['first_access_banner', '2'],
      ['locale', 'fr'],
      ['utc_offset', '+3'],
      ['utc_offset', '+15:00'],
      ['timezone', 'Mars/Olympus_Mons'],
      ['timezone', '+03:00'],
    ];
    for (const [preference, value] of cases) {
      const body = await expectError(await set(alice, preference, value), 400, 'validation_failed');
      expect(body.path, `${preference}=${value}`).toEqual(['value']);
    }
    const extra = await expectError(
      await post(
        base.app,
        '/api/user/set_preference',
        { preference: 'dark_mode', value: '1', user_id: 2 },
        alice,
      ),
      400,
      'validation_failed',
    );
    expect(extra.path).toEqual(['user_id']);
    const notString = await expectError(
      await post(base.app, '/api/user/set_preference', { preference: 'dark_mode', value: 1 }, alice),
      400,
      'validation_failed',
    );
    expect(notString.path).toEqual(['value']);
    await expectError(await get(alice, { preference: 'font_size' }), 400, 'validation_failed');
  });

  it("never shows user B user A's preferences, nor lets B change them", async () => {
    const before = (await expectOk(await get(alice), PreferenceList)).data;
    expect(before.length).toBeGreaterThan(0);
    expect((await expectOk(await get(bruno), PreferenceList)).data).toEqual([]);
    await expectOk(await set(bruno, 'dark_mode', '1'), UserPreference);
    expect((await expectOk(await get(bruno), PreferenceList)).data).toEqual([
      { preference: 'dark_mode', value: '1' },
    ]);
    expect((await expectOk(await get(alice), PreferenceList)).data).toEqual(before);
  });

  it('answers 401 without a session', async () => {
    await expectError(await post(base.app, '/api/user/get_preference', {}), 401, 'unauthorized');
    await expectError(
      await post(base.app, '/api/user/set_user_preference', { preference: 'dark_mode', value: '1' }),
      401,
      'unauthorized',
    );
  });
});

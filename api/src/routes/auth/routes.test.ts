import { SigninData, ValidLoginData } from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAccount,
  createTestApp,
  expectError,
  expectOk,
  post,
  sameDbApp,
  type TestApp,
} from './test-app';

const EMAIL = 'dora@example.com';
const PASSWORD = 'dora-password';

let base: TestApp;
beforeAll(async () => {
  base = await createTestApp();
  await createAccount(base.t.db, EMAIL, PASSWORD, { name: 'Dora' });
});
afterAll(async () => {
  await base?.drop();
});

describe('POST /api/signin/{login_type}/login', () => {
  it('signs in like POST /api/signin', async () => {
    const res = await post(base.app, '/api/signin/flightdeck/login', { email: EMAIL, password: PASSWORD });
    expect(res.headers.get('Set-Cookie')).toContain('fd_session=');
    const { token } = (await expectOk(res, SigninData)).data;
    const valid = await expectOk(
      await post(base.app, '/api/auth/flightdeck/valid_login', {}, token),
      ValidLoginData,
    );
    expect(valid.data.user).toMatchObject({ user_login_email: EMAIL, user_name: 'Dora' });
  });

  it('answers 404 "unknown login type" for another login type', async () => {
    const body = await expectError(
      await post(base.app, '/api/signin/linkedin/login', { email: EMAIL, password: PASSWORD }),
      404,
      'not_found',
    );
    expect(body.message).toBe('unknown login type');
  });

  it('shares the sign-in limit with POST /api/signin: 429 with a clear message', async () => {
    const app = sameDbApp(base);
    for (let i = 0; i < 10; i++) {
      const path = i % 2 ? '/api/signin' : '/api/signin/flightdeck/login';
      await expectError(
        await post(app, path, { email: EMAIL, password: 'wrong-password' }),
        401,
        'invalid_credentials',
      );
    }
    const body = await expectError(
      await post(app, '/api/signin/flightdeck/login', { email: EMAIL, password: PASSWORD }),
      429,
      'rate_limited',
    );
    expect(body.message).toBe('Too many failed sign-ins. Wait a minute and try again.');
  });
});

describe('session checks', () => {
  it('answers valid_login with the user, and 401 without a session', async () => {
    const { token } = (
      await expectOk(await post(base.app, '/api/signin', { email: EMAIL, password: PASSWORD }), SigninData)
    ).data;
    const res = await base.app.request('/api/auth/flightdeck/valid_login', {
      method: 'POST',
      headers: { Cookie: `fd_session=${token}` },
    });
    const { data } = await expectOk(res, ValidLoginData);
    expect(data.valid).toBe(true);
    expect(data.user.preferences).toEqual([]);
    await expectError(await post(base.app, '/api/auth/flightdeck/valid_login', {}), 401, 'unauthorized');
  });

  it('answers 404 "unknown login type" to a signed-in caller naming another login type', async () => {
    const { token } = (
      await expectOk(await post(base.app, '/api/signin', { email: EMAIL, password: PASSWORD }), SigninData)
    ).data;
    const check = await base.app.request('/api/auth/google/check', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect((await expectError(check, 404, 'not_found')).message).toBe('unknown login type');
    await expectError(await post(base.app, '/api/auth/google/valid_login', {}, token), 404, 'not_found');
  });
});

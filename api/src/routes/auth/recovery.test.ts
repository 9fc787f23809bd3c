import { SigninData } from '@flightdeck/schemas';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { codeOf, startTestSmtpServer, type TestSmtpServer } from '../../mail/test-smtp-server';
import { RECOVERY_REQUESTED_MESSAGE } from './recovery';
import {
  createAccount,
  createTestApp,
  expectError,
  expectOk,
  post,
  sameDbApp,
  type TestApp,
} from './test-app';

const Done = z.null();
const OLD = 'the-old-password';
const NEW = 'the-new-password';

let smtp: TestSmtpServer;
let base: TestApp;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  base = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await base?.drop();
  await smtp?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const path = (call: string) => `/api/auth/flightdeck/${call}`;

async function signin(app: TestApp['app'], email: string, password: string) {
  return (await expectOk(await post(app, '/api/signin', { email, password }), SigninData)).data.token;
}

/** Asks for a recovery code and reads it from the e-mail. */
async function requestCode(app: TestApp['app'], email: string) {
  const res = await expectOk(await post(app, path('password_recovery'), { email }), Done);
  expect(res.message).toBe(RECOVERY_REQUESTED_MESSAGE);
  return codeOf(await smtp.nextMail(email));
}

const wrongOf = (code: string) => (code === '123456' ? '654321' : '123456');

describe('password recovery', () => {
  it('sends a code, checks it, sets the new password and revokes every session', async () => {
    const app = sameDbApp(base);
    await createAccount(base.t.db, 'carla@example.com', OLD, { name: 'Carla', locale: 'es' });
    const laptop = await signin(app, 'carla@example.com', OLD);
    const phone = await signin(app, 'carla@example.com', OLD);

    await expectOk(await post(app, path('password_recovery'), { email: 'Carla@Example.com' }), Done);
    const mail = await smtp.nextMail('carla@example.com');
    expect(mail.subject).toContain('Tu código de recuperación de contraseña');
    expect(mail.text).toContain('Hola, Carla');
    const code = codeOf(mail);

    await expectError(
      await post(app, path('password_verify_code'), { email: 'carla@example.com', code: wrongOf(code) }),
      400,
      'invalid_code',
    );
    await expectOk(await post(app, path('password_verify_code'), { email: 'carla@example.com', code }), Done);

    const mismatch = await expectError(
      await post(app, path('recovery_password'), {
        email: 'carla@example.com',
        code,
        password: NEW,
        password_confirmation: `${NEW}!`,
      }),
      400,
      'passwords_mismatch',
    );
    expect(mismatch.message).toBe('The passwords do not match!');
    const short = await expectError(
      await post(app, path('recovery_password'), {
        email: 'carla@example.com',
        code,
        password: 'short',
        password_confirmation: 'short',
      }),
      400,
      'validation_failed',
    );
    expect(short.path).toEqual(['password']);

    const done = await expectOk(
      await post(app, path('recovery_password'), {
        email: 'carla@example.com',
        code,
        password: NEW,
        password_confirmation: NEW,
      }),
      Done,
    );
    expect(done.message).toMatch(/password was changed/);

    for (const token of [laptop, phone]) {
      await expectError(await post(app, path('valid_login'), {}, token), 401, 'unauthorized');
    }
    await expectError(
      await post(app, '/api/signin', { email: 'carla@example.com', password: OLD }),
      401,
      'invalid_credentials',
    );
    await signin(app, 'carla@example.com', NEW);
    // The code was used.
    await expectError(
      await post(app, path('recovery_password'), {
        email: 'carla@example.com',
        code,
        password: 'a-third-password',
        password_confirmation: 'a-third-password',
      }),
      400,
      'invalid_code',
    );
  });

  it('answers the same for an unknown e-mail and a blocked user, and sends them nothing', async () => {
    const app = sameDbApp(base);
    await createAccount(base.t.db, 'blocked@example.com', OLD, { status: 'BLOCKED' });
    const before = smtp.received.length;
    for (const email of ['nobody@example.com', 'blocked@example.com']) {
      const res = await expectOk(await post(app, path('password_recovery'), { email }), Done);
      expect(res.message).toBe(RECOVERY_REQUESTED_MESSAGE);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.length).toBe(before);
    await expectError(
      await post(app, path('password_verify_code'), { email: 'nobody@example.com', code: '123456' }),
      400,
      'invalid_code',
    );
  });

  it('refuses a code after 15 minutes', async () => {
    const app = sameDbApp(base);
    await createAccount(base.t.db, 'late@example.com', OLD);
    const code = await requestCode(app, 'late@example.com');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 14 * 60_000);
    await expectOk(await post(app, path('password_verify_code'), { email: 'late@example.com', code }), Done);
    vi.setSystemTime(Date.now() + 61_000);
    await expectError(
      await post(app, path('password_verify_code'), { email: 'late@example.com', code }),
      400,
      'invalid_code',
    );
    await expectError(
      await post(app, path('recovery_password'), {
        email: 'late@example.com',
        code,
        password: NEW,
        password_confirmation: NEW,
      }),
      400,
      'invalid_code',
    );
  });

  it('refuses even the right code after 5 wrong tries', async () => {
    const app = sameDbApp(base);
    await createAccount(base.t.db, 'guess@example.com', OLD);
    const code = await requestCode(app, 'guess@example.com');
    for (let i = 0; i < 5; i++) {
      await expectError(
        await post(app, path('password_verify_code'), { email: 'guess@example.com', code: wrongOf(code) }),
        400,
        'invalid_code',
      );
    }
    await expectError(
      await post(app, path('recovery_password'), {
        email: 'guess@example.com',
        code,
        password: NEW,
        password_confirmation: NEW,
      }),
      400,
      'invalid_code',
    );
    await signin(app, 'guess@example.com', OLD);
  });

  it('destroys the live code on request', async () => {
    const app = sameDbApp(base);
    await createAccount(base.t.db, 'cancel@example.com', OLD);
    const code = await requestCode(app, 'cancel@example.com');
    await expectOk(await post(app, path('destroy_code'), { email: 'cancel@example.com' }), Done);
    await expectError(
      await post(app, path('password_verify_code'), { email: 'cancel@example.com', code }),
      400,
      'invalid_code',
    );
    // Destroying when there is nothing to destroy answers the same.
    await expectOk(await post(app, path('destroy_code'), { email: 'nobody@example.com' }), Done);
  });

  it('limits code requests to 5 a minute per e-mail', async () => {
    const app = sameDbApp(base);
    for (let i = 0; i < 5; i++) {
      await expectOk(await post(app, path('password_recovery'), { email: 'spam@example.com' }), Done);
    }
    await expectError(
      await post(app, path('password_recovery'), { email: 'spam@example.com' }),
      429,
      'rate_limited',
    );
    await expectOk(await post(app, path('password_recovery'), { email: 'someone-else@example.com' }), Done);
  });

  it('answers 404 "unknown login type" on every recovery call for another login type', async () => {
    const app = sameDbApp(base);
    for (const call of ['password_recovery', 'password_verify_code', 'destroy_code', 'recovery_password']) {
      const body = await expectError(await post(app, `/api/auth/google/${call}`, {}), 404, 'not_found');
      expect(body.message).toBe('unknown login type');
    }
  });
});

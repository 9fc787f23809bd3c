import { createServer } from 'node:net';
import { AuthUser, SigninData } from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codeOf, startTestSmtpServer, type TestSmtpServer } from '../../mail/test-smtp-server';
import { createTestApp, expectError, expectOk, post, sameDbApp, type TestApp } from './test-app';

const Done = z.null();

let smtp: TestSmtpServer;
let base: TestApp;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  // No mailer is given: the app builds its SMTP mailer from SMTP_URL, as in production.
  base = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await base?.drop();
  await smtp?.close();
});

const signup = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'Ana Souza',
  email,
  password: 'a-long-password',
  ...extra,
});

describe('freemium sign-up with e-mail verification', () => {
  it('registers, reads the code from the e-mail, verifies it and is signed in', async () => {
    const app = sameDbApp(base);
    const res = await post(
      app,
      '/api/signup/flightdeck/register',
      signup('Ana@Example.com', { company: 'Souza Ltda', locale: 'pt' }),
    );
    const answer = await expectOk(res, Done);
    expect(answer.message).toContain('ana@example.com');

    const mail = await smtp.nextMail('ana@example.com');
    expect(mail.subject).toContain('Seu código de verificação do Flightdeck');
    expect(mail.text).toContain('Olá, Ana Souza');
    const code = codeOf(mail);

    const verified = await post(app, '/api/signup/email_verification', { email: 'ana@example.com', code });
    expect(verified.headers.get('Set-Cookie')).toContain('fd_session=');
    const { token } = (await expectOk(verified, SigninData)).data;

    const check = await app.request('/api/auth/flightdeck/check', {
      headers: { Cookie: `fd_session=${token}` },
    });
    const user = (await expectOk(check, AuthUser)).data;
    expect(user).toMatchObject({
      user_login_email: 'ana@example.com',
      user_name: 'Ana Souza',
      is_admin: '1',
      role_code: 7,
      locale: 'pt',
      timezone_code: 'UTC',
    });
    expect(user.preferences).toEqual([
      { preference: 'dark_mode', value: '0' },
      { preference: 'first_access_banner', value: '1' },
      { preference: 'locale', value: 'pt' },
      { preference: 'timezone', value: 'UTC' },
      { preference: 'utc_offset', value: '+00:00' },
    ]);

    const db = base.t.db;
    const customer = await db
      .selectFrom('customers')
      .selectAll()
      .where('id', '=', user.customer_id)
      .executeTakeFirstOrThrow();
    expect(customer).toMatchObject({ name: 'Souza Ltda', email: 'ana@example.com', status: 'active' });
    expect(Math.abs(customer.register_in - Date.now() / 1000)).toBeLessThan(60);
    const firstFreemium = await db
      .selectFrom('plans')
      .select('id')
      .where('is_freemium', '=', 1)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(customer.plan_id).toBe(firstFreemium.id);

    // The code is used up, and the account exists now.
    await expectError(
      await post(app, '/api/signup/email_verification', { email: 'ana@example.com', code }),
      400,
      'invalid_code',
    );
    await expectError(
      await post(app, '/api/signup/flightdeck/register', signup('ana@example.com')),
      409,
      'email_taken',
    );
  });

  it('names the company after the user when none is given, in English by default', async () => {
    const app = sameDbApp(base);
    await expectOk(
      await post(app, '/api/signup/flightdeck/register', signup('bob@example.com', { name: 'Bob' })),
      Done,
    );
    const mail = await smtp.nextMail('bob@example.com');
    expect(mail.subject).toMatch(/^Your Flightdeck verification code: \d{6}$/);
    const res = await post(app, '/api/signup/email_verification', {
      email: 'bob@example.com',
      code: codeOf(mail),
    });
    await expectOk(res, SigninData);
    const customer = await base.t.db
      .selectFrom('customers')
      .select('name')
      .where('email', '=', 'bob@example.com')
      .executeTakeFirstOrThrow();
    expect(customer.name).toBe("Bob's company");
  });

  it('answers 409 email_taken when a user already has the e-mail, and sends nothing', async () => {
    const app = sameDbApp(base);
    await expectOk(await post(app, '/api/signup/flightdeck/register', signup('taken@example.com')), Done);
    const code = codeOf(await smtp.nextMail('taken@example.com'));
    await expectOk(
      await post(app, '/api/signup/email_verification', { email: 'taken@example.com', code }),
      SigninData,
    );
    const before = smtp.received.length;
    const body = await expectError(
      await post(app, '/api/signup/flightdeck/register', signup('TAKEN@example.com')),
      409,
      'email_taken',
    );
    expect(body.message).toContain('already exists');
    expect(smtp.received.length).toBe(before);
  });

  it('refuses a wrong code, and every code after 5 wrong tries', async () => {
    const app = sameDbApp(base);
    await expectOk(await post(app, '/api/signup/flightdeck/register', signup('tries@example.com')), Done);
    const code = codeOf(await smtp.nextMail('tries@example.com'));
    const wrong = code === '999999' ? '000000' : '999999';
    for (let i = 0; i < 5; i++) {
      await expectError(
        await post(app, '/api/signup/email_verification', { email: 'tries@example.com', code: wrong }),
        400,
        'invalid_code',
      );
    }
    await expectError(
      await post(app, '/api/signup/email_verification', { email: 'tries@example.com', code }),
      400,
      'invalid_code',
    );
    // A new request sends a new code with fresh tries.
    await expectOk(await post(app, '/api/signup/flightdeck/register', signup('tries@example.com')), Done);
    const again = codeOf(await smtp.nextMail('tries@example.com'));
    await expectOk(
      await post(app, '/api/signup/email_verification', { email: 'tries@example.com', code: again }),
      SigninData,
    );
  });

  it('validates the body: password length, locale, unknown fields', async () => {
    const app = sameDbApp(base);
    const short = await expectError(
      await post(app, '/api/signup/flightdeck/register', signup('v@example.com', { password: 'short' })),
      400,
      'validation_failed',
    );
    expect(short.path).toEqual(['password']);
    const locale = await expectError(
      await post(app, '/api/signup/flightdeck/register', signup('v@example.com', { locale: 'fr' })),
      400,
      'validation_failed',
    );
    expect(locale.path).toEqual(['locale']);
    const extra = await expectError(
      await post(app, '/api/signup/flightdeck/register', signup('v@example.com', { phone: '1' })),
      400,
      'validation_failed',
    );
    expect(extra.path).toEqual(['phone']);
    const badCode = await expectError(
      await post(app, '/api/signup/email_verification', { email: 'v@example.com', code: '12ab56' }),
      400,
      'validation_failed',
    );
    expect(badCode.path).toEqual(['code']);
  });

  it('answers 404 "unknown login type" for a login type other than flightdeck', async () => {
    const body = await expectError(
      await post(sameDbApp(base), '/api/signup/linkedin/register', signup('lt@example.com')),
      404,
      'not_found',
    );
    expect(body.message).toBe('unknown login type');
  });

  it('limits code requests to 5 a minute per e-mail and 20 per address', async () => {
    const app = sameDbApp(base);
    for (let i = 0; i < 5; i++) {
      await expectOk(await post(app, '/api/signup/flightdeck/register', signup('flood@example.com')), Done);
    }
    const limited = await expectError(
      await post(app, '/api/signup/flightdeck/register', signup('flood@example.com')),
      429,
      'rate_limited',
    );
    expect(limited.message).toMatch(/Wait a minute/);
    for (let i = 0; i < 15; i++) {
      await expectOk(
        await post(app, '/api/signup/flightdeck/register', signup(`spray${i}@example.com`)),
        Done,
      );
    }
    await expectError(
      await post(app, '/api/signup/flightdeck/register', signup('spray-last@example.com')),
      429,
      'rate_limited',
    );
  });

  it('creates a Freemium plan of 14 days when the catalogue has none', async () => {
    const own = await createTestApp({ SMTP_URL: smtp.url });
    try {
      await own.t.db.updateTable('plans').set({ is_freemium: 0 }).execute();
      await expectOk(
        await post(own.app, '/api/signup/flightdeck/register', signup('first@example.com')),
        Done,
      );
      const code = codeOf(await smtp.nextMail('first@example.com'));
      await expectOk(
        await post(own.app, '/api/signup/email_verification', { email: 'first@example.com', code }),
        SigninData,
      );
      const plan = await own.t.db
        .selectFrom('plans')
        .innerJoin('customers', 'customers.plan_id', 'plans.id')
        .select(['plans.name', 'plans.is_freemium', 'plans.lifetime_days'])
        .where('customers.email', '=', 'first@example.com')
        .executeTakeFirstOrThrow();
      expect(plan).toEqual({ name: 'Freemium', is_freemium: 1, lifetime_days: 14 });
    } finally {
      await own.drop();
    }
  });

  it('answers 503 mail_unavailable when the SMTP server cannot be reached', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const app = sameDbApp(base, {
      config: { ...base.deps.config, SMTP_URL: `smtp://user:secret@127.0.0.1:${closedPort}` },
    });
    const body = await expectError(
      await post(app, '/api/signup/flightdeck/register', signup('nomail@example.com')),
      503,
      'mail_unavailable',
    );
    expect(body.message).toMatch(/could not be sent/);
    const line = base.logLines.find((l) => l.includes('e-mail could not be sent'));
    expect(line).toContain(`127.0.0.1:${closedPort}`);
    expect(line).not.toContain('secret');
  });
});

import {
  DestroyCodeRequest,
  type OkEnvelope,
  PasswordRecoveryRequest,
  PasswordVerifyCodeRequest,
  RecoveryPasswordRequest,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { hashPassword } from '../../auth/password';
import { revokeUserSessions } from '../../auth/sessions';
import { findUserForSignin, setUserPassword } from '../../db/queries/users';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import type { Mailer } from '../../mail';
import { mailLocale, recoveryCodeMail } from '../../mail/messages';
import { checkAuthCode, consumeAuthCode, destroyAuthCode, issueAuthCode } from './codes';
import { type CodeRequestLimiter, knownLoginType } from './shared';

/** The one answer to a recovery request, whether or not an account has the e-mail. */
export const RECOVERY_REQUESTED_MESSAGE = 'If an account exists for this e-mail, a code was sent to it.';

/**
 * Password recovery (spec 4: request, code check, code destroy, new password). A code goes only to
 * an ACTIVE user; the answers never tell whether an account exists.
 */
export function recoveryRoutes(
  deps: AppDeps,
  { mailer, codeRequests }: { mailer: Mailer; codeRequests: CodeRequestLimiter },
) {
  const { db, logger } = deps;

  /** Looks the user up, stores a code and mails it; run after the answer has gone. */
  async function sendRecoveryCode(email: string): Promise<void> {
    const user = await findUserForSignin(db, email);
    if (user?.status !== 'ACTIVE') return;
    const code = await issueAuthCode(db, 'recovery', email);
    await mailer.send(recoveryCodeMail(mailLocale(user.locale), email, { name: user.name, code }));
  }

  return new Hono<AppEnv>()
    .post(
      '/auth/:login_type/password_recovery',
      knownLoginType,
      jsonBody(PasswordRecoveryRequest),
      async (c) => {
        const { email } = c.req.valid('json');
        codeRequests.take(c, email);
        // Not awaited: the answer takes the same time whether or not the account exists. A mail
        // that fails is logged (the smtp mailer names the reason); the user can ask again.
        sendRecoveryCode(email).catch((err) => {
          if (!(err instanceof ApiError)) logger.error({ err }, 'password recovery code not sent');
        });
        return c.json({
          status: 'ok',
          data: null,
          message: RECOVERY_REQUESTED_MESSAGE,
        } satisfies OkEnvelope<null>);
      },
    )

    .post(
      '/auth/:login_type/password_verify_code',
      knownLoginType,
      jsonBody(PasswordVerifyCodeRequest),
      async (c) => {
        const { email, code } = c.req.valid('json');
        if (!(await checkAuthCode(db, 'recovery', email, code))) throw ApiError.of('invalid_code');
        return c.json({ status: 'ok', data: null, message: 'The code is valid.' } satisfies OkEnvelope<null>);
      },
    )

    .post('/auth/:login_type/destroy_code', knownLoginType, jsonBody(DestroyCodeRequest), async (c) => {
      const { email } = c.req.valid('json');
      await destroyAuthCode(db, 'recovery', email);
      return c.json({ status: 'ok', data: null } satisfies OkEnvelope<null>);
    })

    .post(
      '/auth/:login_type/recovery_password',
      knownLoginType,
      jsonBody(RecoveryPasswordRequest),
      async (c) => {
        const { email, code, password, password_confirmation } = c.req.valid('json');
        if (password !== password_confirmation) throw ApiError.of('passwords_mismatch');
        // Checked (and a wrong try counted) outside the transaction, so a rollback cannot undo the count.
        const matched = await checkAuthCode(db, 'recovery', email, code);
        if (!matched) throw ApiError.of('invalid_code');
        const user = await findUserForSignin(db, email);
        if (user?.status !== 'ACTIVE') throw ApiError.of('invalid_code');
        const passwordHash = await hashPassword(password);
        await db.transaction().execute(async (trx) => {
          if (!(await consumeAuthCode(trx, matched))) throw ApiError.of('invalid_code');
          await setUserPassword(trx, user.customer_id, user.id, passwordHash);
          await revokeUserSessions(trx, user.customer_id, user.id);
        });
        return c.json({
          status: 'ok',
          data: null,
          message: 'Your password was changed. Sign in with the new password.',
        } satisfies OkEnvelope<null>);
      },
    );
}

import { EMAIL_CODE_TTL_MINUTES, USER_LOCALES, type UserLocale } from '@flightdeck/schemas';
import type { MailMessage } from './contract';

/** What the code e-mails say, per language; `{name}`, `{code}` and `{minutes}` are filled in. */
interface CodeTexts {
  subject: string;
  greeting: string;
  intro: string;
  validity: string;
  ignore: string;
}

const SIGNUP: Record<UserLocale, CodeTexts> = {
  en: {
    subject: 'Your Flightdeck verification code: {code}',
    greeting: 'Hello {name},',
    intro: 'Use this code to confirm your e-mail and finish creating your Flightdeck account:',
    validity: 'The code is valid for {minutes} minutes.',
    ignore: 'If you did not sign up for Flightdeck, ignore this e-mail.',
  },
  es: {
    subject: 'Tu código de verificación de Flightdeck: {code}',
    greeting: 'Hola, {name}:',
    intro: 'Usa este código para confirmar tu correo y terminar de crear tu cuenta de Flightdeck:',
    validity: 'El código es válido durante {minutes} minutos.',
    ignore: 'Si no te registraste en Flightdeck, ignora este correo.',
  },
  pt: {
    subject: 'Seu código de verificação do Flightdeck: {code}',
    greeting: 'Olá, {name},',
    intro: 'Use este código para confirmar seu e-mail e concluir a criação da sua conta no Flightdeck:',
    validity: 'O código é válido por {minutes} minutos.',
    ignore: 'Se você não se cadastrou no Flightdeck, ignore este e-mail.',
  },
};

const RECOVERY: Record<UserLocale, CodeTexts> = {
  en: {
    subject: 'Your Flightdeck password recovery code: {code}',
    greeting: 'Hello {name},',
    intro:
      'Someone asked to reset the password of your Flightdeck account. Use this code to choose a new one:',
    validity: 'The code is valid for {minutes} minutes.',
    ignore: 'If it was not you, ignore this e-mail: your password stays as it is.',
  },
  es: {
    subject: 'Tu código de recuperación de contraseña de Flightdeck: {code}',
    greeting: 'Hola, {name}:',
    intro:
      'Se pidió restablecer la contraseña de tu cuenta de Flightdeck. Usa este código para elegir una nueva:',
    validity: 'El código es válido durante {minutes} minutos.',
    ignore: 'Si no fuiste tú, ignora este correo: tu contraseña no cambia.',
  },
  pt: {
    subject: 'Seu código de recuperação de senha do Flightdeck: {code}',
    greeting: 'Olá, {name},',
    intro:
      'Foi pedida a redefinição da senha da sua conta no Flightdeck. Use este código para escolher uma nova:',
    validity: 'O código é válido por {minutes} minutos.',
    ignore: 'Se não foi você, ignore este e-mail: sua senha continua a mesma.',
  },
};

/** A stored locale the mails know, else English (users.locale is free text in the database). */
export function mailLocale(locale: string | null | undefined): UserLocale {
  return (USER_LOCALES as readonly string[]).includes(locale ?? '') ? (locale as UserLocale) : 'en';
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function codeMessage(texts: CodeTexts, to: string, vars: { name: string; code: string }): MailMessage {
  const fill = (s: string, name = vars.name) =>
    s
      .replaceAll('{name}', name)
      .replaceAll('{code}', vars.code)
      .replaceAll('{minutes}', String(EMAIL_CODE_TTL_MINUTES));
  const text = [
    fill(texts.greeting),
    '',
    fill(texts.intro),
    '',
    `    ${vars.code}`,
    '',
    fill(texts.validity),
    fill(texts.ignore),
    '',
    '— Flightdeck',
  ].join('\n');
  const html = [
    `<p>${fill(texts.greeting, escapeHtml(vars.name))}</p>`,
    `<p>${fill(texts.intro)}</p>`,
    `<p style="font-size:28px;font-weight:bold;letter-spacing:6px;font-family:monospace">${vars.code}</p>`,
    `<p>${fill(texts.validity)}<br>${fill(texts.ignore)}</p>`,
    '<p>— Flightdeck</p>',
  ].join('\n');
  return { to, subject: fill(texts.subject), text, html };
}

/** The sign-up verification e-mail with its 6-digit code, in the language chosen at sign-up. */
export function signupCodeMail(
  locale: UserLocale,
  to: string,
  vars: { name: string; code: string },
): MailMessage {
  return codeMessage(SIGNUP[locale], to, vars);
}

/** The password recovery e-mail with its 6-digit code, in the user's language. */
export function recoveryCodeMail(
  locale: UserLocale,
  to: string,
  vars: { name: string; code: string },
): MailMessage {
  return codeMessage(RECOVERY[locale], to, vars);
}

import { createServer, type Socket } from 'node:net';
import { ConfigError } from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiConfig } from '../config';
import { ApiError } from '../errors';
import { createMailer } from './index';
import { recoveryCodeMail, signupCodeMail } from './messages';
import { createSmtpMailer } from './smtp';
import { startTestSmtpServer, type TestSmtpServer } from './test-smtp-server';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  return { lines, logger };
}

describe('SMTP configuration', () => {
  it('takes smtp:// and smtps:// URLs and a default sender', () => {
    expect(loadApiConfig({}).SMTP_URL).toBeUndefined();
    expect(loadApiConfig({}).SMTP_FROM).toBe('Flightdeck <no-reply@flightdeck.local>');
    const c = loadApiConfig({
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      SMTP_FROM: 'Ops <ops@example.com>',
    });
    expect(c).toMatchObject({
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      SMTP_FROM: 'Ops <ops@example.com>',
    });
  });

  it('names SMTP_URL when it is not an SMTP URL', () => {
    expect(() => loadApiConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(ConfigError);
    expect(() => loadApiConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(
      /SMTP_URL: expected a URL starting with smtp:\/\/ or smtps:\/\//,
    );
  });
});

describe('mailers', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('logs the message, code included, at warn level when SMTP_URL is not set', async () => {
    const { lines, logger } = capture();
    const mailer = createMailer(loadApiConfig({}), logger);
    await mailer.send(signupCodeMail('en', 'x@example.com', { name: 'X', code: '042042' }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, to: 'x@example.com' });
    expect(String(lines[0]!.text)).toContain('042042');
    expect(String(lines[0]!.msg)).toContain('SMTP_URL is not set');
  });

  it('sends through SMTP with the configured sender, text and HTML', async () => {
    const { logger } = capture();
    const mailer = createMailer(
      loadApiConfig({ SMTP_URL: smtp.url, SMTP_FROM: 'Ops <ops@example.com>' }),
      logger,
    );
    await mailer.send(recoveryCodeMail('pt', 'y@example.com', { name: 'Ypsilon <b>', code: '000123' }));
    const mail = await smtp.nextMail('y@example.com');
    expect(mail.raw).toMatch(/^From: Ops <ops@example.com>/m);
    expect(mail.subject).toBe('Seu código de recuperação de senha do Flightdeck: 000123');
    expect(mail.text).toContain('Olá, Ypsilon <b>,');
    expect(mail.text).toMatch(/^\s+000123$/m);
    expect(mail.raw).toContain('text/html');
  });

  it('gives mail_unavailable when the server does not answer in time', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as { port: number };
    const { lines, logger } = capture();
    const mailer = createSmtpMailer(
      { url: `smtp://127.0.0.1:${port}`, from: 'a@b.c', timeoutMs: 300 },
      logger,
    );
    const started = performance.now();
    const err = await mailer.send({ to: 'z@example.com', subject: 's', text: 't' }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('mail_unavailable');
    expect(lines[0]).toMatchObject({ level: 40, server: `smtp://127.0.0.1:${port}` });
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  });
});

describe('code messages', () => {
  it('say the same in en, es and pt, with the code and its validity', () => {
    for (const locale of ['en', 'es', 'pt'] as const) {
      for (const make of [signupCodeMail, recoveryCodeMail]) {
        const m = make(locale, 'a@example.com', { name: 'Ana', code: '314159' });
        expect(m.subject).toContain('314159');
        expect(m.text).toContain('314159');
        expect(m.text).toContain('15');
        expect(m.html).toContain('314159');
      }
    }
    expect(signupCodeMail('es', 'a@example.com', { name: 'A', code: '1' }).text).toContain('minutos');
  });

  it('escapes the name in the HTML part', () => {
    const m = signupCodeMail('en', 'a@example.com', { name: '<script>x</script>', code: '111111' });
    expect(m.html).not.toContain('<script>');
    expect(m.text).toContain('<script>x</script>');
  });
});

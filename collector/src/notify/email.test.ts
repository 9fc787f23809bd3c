import { createServer, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, Notifier } from './contract';
import { NotifyError } from './contract';
import { createEmailNotifier } from './email';
import { alertLink, alertNotification } from './messages';
import { startTestSmtpServer, type TestSmtpServer } from './test-servers';

const logger = pino({ level: 'silent' });

function mail(id: string, address: string, serverName = 'db-01'): Notification {
  return alertNotification({
    id,
    tenant: 't1',
    recipient: { channel: 'email', address },
    locale: 'pt',
    alert: {
      event: 'new',
      serverName,
      alertType: 'Uso de CPU acima de 90 %',
      status: 'R',
      value: '97 %',
      link: alertLink('https://fd.example.com', 3, 'linux'),
    },
  });
}

const never = new AbortController().signal;

describe('e-mail notifier', () => {
  let smtp: TestSmtpServer;
  let notifier: Notifier;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    notifier = createEmailNotifier({ url: smtp.url, from: 'Flightdeck <alerts@fd.example.com>' }, logger);
  });
  afterAll(async () => {
    await notifier?.close();
    await smtp?.close();
  });

  it('delivers subject, text, sender and recipient to the SMTP server', async () => {
    await notifier.send(mail('m1', 'ana@example.com', 'db-01 ção'), never);
    const got = smtp.received.find((m) => m.to.includes('ana@example.com'));
    expect(got).toBeDefined();
    expect(got!.from).toBe('alerts@fd.example.com');
    expect(got!.raw).toMatch(/^From: Flightdeck <alerts@fd.example.com>/m);
    expect(got!.subject).toBe('[Flightdeck] Novo alerta (crítico): Uso de CPU acima de 90 % em db-01 ção');
    expect(got!.text).toContain('Servidor: db-01 ção\nStatus: crítico\nValor: 97 %');
    expect(got!.text).toContain('Abrir no Flightdeck: https://fd.example.com/flightdeck/services/3/linux');
  });

  it('sends several messages over one pooled connection', async () => {
    const before = smtp.connections();
    await notifier.send(mail('m2', 'bob@example.com'), never);
    await notifier.send(mail('m3', 'carl@example.com'), never);
    const two = smtp.received.filter(
      (m) => m.to.includes('bob@example.com') || m.to.includes('carl@example.com'),
    );
    expect(two).toHaveLength(2);
    expect(two[0]!.connection).toBe(two[1]!.connection);
    // The first test opened the pool's connection; nothing since needed a new one.
    expect(smtp.connections()).toBe(before);
  });

  it('fails for good on a mailbox the server refuses (550), without retry', async () => {
    smtp.rejectRecipient('ghost@example.com');
    const err = await notifier.send(mail('m4', 'ghost@example.com'), never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotifyError);
    expect((err as NotifyError).retryable).toBe(false);
    expect((err as NotifyError).status).toBe(550);
  });

  it('fails retryably when the server is down, and the pool recovers when it is back', async () => {
    await smtp.stop();
    const err = await notifier.send(mail('m5', 'dora@example.com'), never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotifyError);
    expect((err as NotifyError).retryable).toBe(true);
    expect((err as NotifyError).message).toMatch(/^SMTP smtp:\/\/127\.0\.0\.1:\d+: /);
    await smtp.start();
    await notifier.send(mail('m6', 'dora@example.com'), never);
    expect(smtp.received.filter((m) => m.to.includes('dora@example.com'))).toHaveLength(1);
  });

  it('gives up within its time-out when the server never greets', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as { port: number };
    const slow = createEmailNotifier(
      { url: `smtp://127.0.0.1:${port}`, from: 'a@b.example', timeoutMs: 300 },
      logger,
    );
    const started = performance.now();
    const err = await slow.send(mail('m7', 'eve@example.com'), never).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect((err as NotifyError).retryable).toBe(true);
    await slow.close();
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  });
});

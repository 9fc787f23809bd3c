import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, Notifier, Recipient } from './contract';
import { createEmailNotifier } from './email';
import { createGChatNotifier } from './gchat';
import { createMemoryOutbox, type NotificationOutbox } from './outbox';
import { createSqliteOutbox } from './outbox-sqlite';
import { createNotificationQueue, type NotificationQueue, type NotificationQueueOptions } from './queue';
import { createTelegramNotifier } from './telegram';
import {
  type CapturedRequest,
  type CaptureServer,
  startCaptureServer,
  startTestSmtpServer,
  type TestSmtpServer,
  waitFor,
} from './test-servers';

const logger = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'fd-queue-'));

function note(id: string, recipient: Recipient): Notification {
  return { id, tenant: 't1', recipient, locale: 'en', subject: `subject ${id}`, text: `message ${id}` };
}
const chat = (chatId: string): Recipient => ({ channel: 'telegram', chatId });
const textOf = (r: CapturedRequest) => (r.json as { text: string }).text;
const chatOf = (r: CapturedRequest) => (r.json as { chat_id: string }).chat_id;

describe('notification queue', () => {
  let telegramApi: CaptureServer;
  let chatApi: CaptureServer;
  let smtp: TestSmtpServer;
  /** Telegram requests the service accepted (answered 200). */
  let accepted: CapturedRequest[];
  const open: { queue: NotificationQueue; outbox: NotificationOutbox; notifiers: Notifier[] }[] = [];

  beforeAll(async () => {
    telegramApi = await startCaptureServer();
    chatApi = await startCaptureServer();
    smtp = await startTestSmtpServer();
  });
  afterEach(async () => {
    for (const q of open.splice(0)) {
      await q.queue.close(100);
      await q.outbox.close();
      for (const n of q.notifiers) await n.close();
    }
    telegramApi.requests.length = 0;
    chatApi.requests.length = 0;
    await telegramApi.start().catch(() => undefined);
    await smtp.start().catch(() => undefined);
  });
  afterAll(async () => {
    await telegramApi?.close();
    await chatApi?.close();
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Telegram answers with `status` for the first `times` requests, then 200. */
  function telegramAnswers(
    status: number,
    times = Number.POSITIVE_INFINITY,
    headers?: Record<string, string>,
  ) {
    accepted = [];
    let n = 0;
    telegramApi.reply = (req) => {
      if (n++ < times) return { status, headers, body: { ok: false, description: `failure ${status}` } };
      accepted.push(req);
      return { status: 200, body: { ok: true, result: {} } };
    };
  }

  function start(options: Partial<NotificationQueueOptions> & { outbox?: NotificationOutbox } = {}) {
    const notifiers = options.notifiers
      ? [...options.notifiers]
      : [createTelegramNotifier({ token: 'tok', baseUrl: telegramApi.url, timeoutMs: 1_000 })];
    const outbox = options.outbox ?? createMemoryOutbox();
    const queue = createNotificationQueue({
      logger,
      backoffBaseMs: 40,
      backoffMaxMs: 200,
      random: () => 1,
      ...options,
      notifiers,
      outbox,
    });
    open.push({ queue, outbox, notifiers });
    return { queue, outbox };
  }

  it('delivers in the background and drops a second notification with the same id', async () => {
    telegramAnswers(200, 0);
    const { queue, outbox } = start();
    expect(await queue.enqueue(note('n1', chat('10')))).toBe('queued');
    expect(await queue.enqueue(note('n1', chat('10')))).toBe('duplicate');
    await waitFor(() => accepted.length === 1, 'the delivery');
    await waitFor(async () => (await outbox.get('n1'))?.state === 'sent', 'the sent mark');
    expect(await queue.enqueue(note('n1', chat('10')))).toBe('duplicate');
    await new Promise((r) => setTimeout(r, 150));
    expect(telegramApi.requests).toHaveLength(1);
    expect(textOf(accepted[0]!)).toBe('message n1');
    const stats = await queue.stats();
    expect(stats.telegram).toMatchObject({ configured: true, sent: 1, failed: 0, queued: 0, retrying: 0 });
    expect(stats.email.configured).toBe(false);
  });

  it('refuses a notification for a channel that has no notifier', async () => {
    const { queue, outbox } = start();
    expect(await queue.enqueue(note('m1', { channel: 'email', address: 'a@example.com' }))).toBe(
      'unconfigured',
    );
    expect(await outbox.get('m1')).toBeUndefined();
  });

  it('retries a 500 with growing waits until it goes through', async () => {
    telegramAnswers(500, 3);
    const { queue, outbox } = start();
    await queue.enqueue(note('r1', chat('11')));
    await waitFor(() => accepted.length === 1, 'the delivery after three failures');
    const at = telegramApi.requests.map((r) => r.at);
    expect(at).toHaveLength(4);
    // Waits of 40, 80 and 160 ms (random() = 1 takes the full back-off).
    const gaps = [at[1]! - at[0]!, at[2]! - at[1]!, at[3]! - at[2]!];
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(75);
    expect(gaps[2]).toBeGreaterThanOrEqual(155);
    await waitFor(async () => (await outbox.get('r1'))?.state === 'sent', 'the sent mark');
    expect(await outbox.get('r1')).toMatchObject({ attempts: 4 });
    expect((await queue.stats()).telegram).toMatchObject({ sent: 1, retries: 3 });
  });

  it('waits as long as a 429 Retry-After asks', async () => {
    telegramAnswers(429, 1, { 'retry-after': '1' });
    const { queue } = start();
    await queue.enqueue(note('l1', chat('12')));
    await waitFor(() => accepted.length === 1, 'the delivery after the rate limit');
    const [first, second] = telegramApi.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
  });

  it('gives up at once on a 400, recording why, and goes on with the next', async () => {
    let n = 0;
    accepted = [];
    telegramApi.reply = (req) => {
      if (n++ === 0) return { status: 400, body: { ok: false, description: 'Bad Request: chat not found' } };
      accepted.push(req);
      return { status: 200, body: { ok: true, result: {} } };
    };
    const { queue, outbox } = start();
    await queue.enqueue(note('p1', chat('13')));
    await queue.enqueue(note('p2', chat('13')));
    await waitFor(async () => (await outbox.get('p2'))?.state === 'sent', 'the next notification');
    expect(telegramApi.requests).toHaveLength(2);
    expect(await outbox.get('p1')).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: 'Telegram sendMessage to chat 13: HTTP 400: Bad Request: chat not found',
    });
    const stats = await queue.stats();
    expect(stats.telegram).toMatchObject({ failed: 1, sent: 1 });
    expect(stats.telegram.lastError).toMatchObject({ notificationId: 'p1' });
  });

  it('gives up on a retryable failure after the maximum age, with the reason', async () => {
    telegramAnswers(503);
    const { queue, outbox } = start({ maxAgeMs: 300 });
    await queue.enqueue(note('g1', chat('14')));
    await waitFor(async () => (await outbox.get('g1'))?.state === 'failed', 'giving up', 3_000);
    const record = await outbox.get('g1');
    expect(record!.lastError).toMatch(
      /^gave up after \d+ attempts in 0 s: Telegram sendMessage to chat 14: HTTP 503/,
    );
    expect(record!.attempts).toBeGreaterThan(2);
    expect(record!.attempts).toBe(telegramApi.requests.length);
  });

  it('keeps notifications through an outage and sends each once, in order per recipient', async () => {
    telegramAnswers(200, 0);
    await telegramApi.stop();
    const { queue } = start();
    const sent = ['a1', 'b1', 'a2', 'a3', 'b2', 'a4'];
    for (const id of sent) await queue.enqueue(note(id, chat(id[0] === 'a' ? '21' : '22')));
    await waitFor(async () => (await queue.stats()).telegram.retrying === 2, 'both recipients retrying');
    expect((await queue.health()).state).toBe('degraded');
    expect((await queue.stats()).telegram).toMatchObject({ queued: 4, retrying: 2 });
    await telegramApi.start();
    await waitFor(() => accepted.length === sent.length, 'every notification after the outage', 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(accepted.map(textOf).sort()).toEqual(sent.map((id) => `message ${id}`).sort());
    expect(accepted.filter((r) => chatOf(r) === '21').map(textOf)).toEqual(
      ['a1', 'a2', 'a3', 'a4'].map((id) => `message ${id}`),
    );
    expect(accepted.filter((r) => chatOf(r) === '22').map(textOf)).toEqual(['message b1', 'message b2']);
    expect(await queue.health()).toEqual({ state: 'ok' });
    expect((await queue.stats()).telegram).toMatchObject({ sent: 6, queued: 0, retrying: 0 });
  });

  it('keeps e-mail through an SMTP outage and sends each once, in order', async () => {
    const notifier = createEmailNotifier(
      { url: smtp.url, from: 'alerts@fd.example.com', timeoutMs: 1_000 },
      logger,
    );
    await smtp.stop();
    const { queue } = start({ notifiers: [notifier] });
    const to: Recipient = { channel: 'email', address: 'oncall@example.com' };
    for (const id of ['e1', 'e2', 'e3']) await queue.enqueue(note(id, to));
    await waitFor(async () => (await queue.stats()).email.retrying === 1, 'the e-mail retrying');
    await smtp.start();
    const mine = () => smtp.received.filter((m) => m.to.includes('oncall@example.com'));
    await waitFor(() => mine().length === 3, 'the three e-mails', 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(mine().map((m) => m.subject)).toEqual(['subject e1', 'subject e2', 'subject e3']);
    expect(mine().map((m) => m.text)).toEqual(['message e1', 'message e2', 'message e3']);
  });

  it('delivers e-mail promptly after enqueue, over the one pooled connection', async () => {
    const notifier = createEmailNotifier({ url: smtp.url, from: 'alerts@fd.example.com' }, logger);
    const { queue } = start({ notifiers: [notifier] });
    const to: Recipient = { channel: 'email', address: 'fast@example.com' };
    await queue.enqueue(note('w0', to));
    await waitFor(() => smtp.received.some((m) => m.subject === 'subject w0'), 'the warm-up e-mail');
    const connections = smtp.connections();
    for (let i = 1; i <= 5; i++) {
      const started = performance.now();
      await queue.enqueue(note(`w${i}`, to));
      await waitFor(() => smtp.received.some((m) => m.subject === `subject w${i}`), `e-mail w${i}`);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    expect(smtp.connections()).toBe(connections);
  });

  it('lets neither enqueue nor another channel wait for a hanging channel', async () => {
    telegramAnswers(200, 0);
    chatApi.reply = () => 'hang';
    const gchat = createGChatNotifier({ baseUrl: chatApi.url, timeoutMs: 60_000 });
    const telegram = createTelegramNotifier({ token: 'tok', baseUrl: telegramApi.url });
    // Google Chat's sends hang for 10 s: anything that waited for them would take that long.
    const { queue } = start({ notifiers: [gchat, telegram], concurrency: 2, sendTimeoutMs: 10_000 });
    const space = (s: string): Recipient => ({
      channel: 'gchat',
      webhookUrl: `https://chat.googleapis.com/v1/spaces/${s}/messages?key=k`,
    });
    const started = performance.now();
    for (let i = 0; i < 5; i++) expect(await queue.enqueue(note(`h${i}`, space(`S${i}`)))).toBe('queued');
    await waitFor(() => chatApi.requests.length === 2, 'the hanging channel full');
    await queue.enqueue(note('t1', chat('30')));
    await waitFor(() => accepted.length === 1, 'telegram while Google Chat hangs');
    expect(performance.now() - started).toBeLessThan(3_000);
    const stats = await queue.stats();
    expect(stats.gchat).toMatchObject({ inFlight: 2, queued: 5 });
    expect(chatApi.requests).toHaveLength(2);
  });

  it('frees the slot of a notifier that ignores its signal', async () => {
    const stuck: Notifier = { channel: 'slack', send: () => new Promise(() => {}), close: async () => {} };
    const { queue, outbox } = start({ notifiers: [stuck], sendTimeoutMs: 150 });
    await queue.enqueue(note('s1', { channel: 'slack', conversation: '#ops' }));
    await waitFor(async () => ((await outbox.get('s1'))?.attempts ?? 0) >= 1, 'the timed-out attempt');
    expect(await outbox.get('s1')).toMatchObject({
      state: 'pending',
      lastError: 'slack: no answer within 150 ms',
    });
  });

  it('sends what was pending before a restart once, from the same SQLite file', async () => {
    const path = join(dir, 'restart.sqlite');
    telegramAnswers(200, 0);
    await telegramApi.stop();
    const first = start({ outbox: createSqliteOutbox({ path, logger }) });
    for (const id of ['x1', 'x2', 'y1'])
      await first.queue.enqueue(note(id, chat(id[0] === 'x' ? '41' : '42')));
    await waitFor(
      async () => (await first.queue.stats()).telegram.retrying === 2,
      'the first attempts failing',
    );
    await first.queue.close();
    await first.outbox.close();

    await telegramApi.start();
    const second = start({ outbox: createSqliteOutbox({ path, logger }) });
    expect(await second.queue.enqueue(note('x1', chat('41')))).toBe('duplicate');
    await waitFor(() => accepted.length === 3, 'the pending notifications after the restart');
    await new Promise((r) => setTimeout(r, 300));
    expect(accepted.map(textOf)).toEqual(expect.arrayContaining(['message x1', 'message x2', 'message y1']));
    expect(accepted).toHaveLength(3);
    expect(accepted.filter((r) => chatOf(r) === '41').map(textOf)).toEqual(['message x1', 'message x2']);
    expect((await second.outbox.get('x2'))?.state).toBe('sent');
  });

  it('cancels sends still in flight at close and leaves them pending, attempt not counted', async () => {
    accepted = [];
    telegramApi.reply = () => 'hang';
    const { queue, outbox } = start();
    await queue.enqueue(note('c1', chat('50')));
    await waitFor(() => telegramApi.requests.length === 1, 'the send in flight');
    const started = performance.now();
    await queue.close(100);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await outbox.get('c1')).toMatchObject({ state: 'pending', attempts: 0 });
    await expect(queue.enqueue(note('c2', chat('50')))).rejects.toThrow('closed');
  });
});

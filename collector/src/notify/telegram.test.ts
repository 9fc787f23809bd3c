import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Notification, NotifyError } from './contract';
import { alertLink, alertNotification } from './messages';
import { createTelegramNotifier, type TelegramNotifier } from './telegram';
import { type CaptureServer, startCaptureServer } from './test-servers';

const TOKEN = '123456:ABC-secret';
const never = new AbortController().signal;

function note(chatId = '4242'): Notification {
  return alertNotification({
    id: 'n1',
    tenant: 't1',
    recipient: { channel: 'telegram', chatId },
    locale: 'en',
    alert: {
      event: 'new',
      serverName: 'web_01',
      alertType: 'Disk / above 90 %',
      status: 'Y',
      link: alertLink('https://fd.example.com', 5, 'linux'),
    },
  });
}

async function failure(p: Promise<unknown>): Promise<NotifyError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NotifyError);
  return err as NotifyError;
}

describe('Telegram notifier', () => {
  let api: CaptureServer;
  let telegram: TelegramNotifier;
  beforeAll(async () => {
    api = await startCaptureServer();
    telegram = createTelegramNotifier({ token: TOKEN, baseUrl: api.url, timeoutMs: 2_000 });
  });
  beforeEach(() => {
    api.requests.length = 0;
    api.reply = () => ({ status: 200, body: { ok: true, result: { message_id: 1 } } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('posts sendMessage with the chat id and the MarkdownV2 text', async () => {
    await telegram.send(note(), never);
    expect(api.requests).toHaveLength(1);
    const req = api.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/bot${TOKEN}/sendMessage`);
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.json).toMatchObject({ chat_id: '4242', parse_mode: 'MarkdownV2' });
    const text = (req.json as { text: string }).text;
    expect(text.split('\n')[0]).toBe('🟡 *New alert: Disk / above 90 %*');
    expect(text).toContain('Server: web\\_01');
  });

  it('sends plain text without a parse mode when there is no markdown', async () => {
    const { markdown: _, ...plain } = note();
    await telegram.send(plain, never);
    expect(api.requests[0]!.json).not.toHaveProperty('parse_mode');
    expect((api.requests[0]!.json as { text: string }).text).toBe(plain.text);
  });

  it('falls back to the plain text once when Telegram cannot parse the markdown', async () => {
    api.reply = (req) =>
      (req.json as { parse_mode?: string }).parse_mode
        ? {
            status: 400,
            body: { ok: false, error_code: 400, description: "Bad Request: can't parse entities" },
          }
        : { status: 200, body: { ok: true, result: {} } };
    await telegram.send(note(), never);
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1]!.json).not.toHaveProperty('parse_mode');
  });

  it('fails for good on an unknown chat (400), naming the chat but never the token', async () => {
    api.reply = () => ({
      status: 400,
      body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
    });
    const err = await failure(telegram.send(note('999'), never));
    expect(err.retryable).toBe(false);
    expect(err.status).toBe(400);
    expect(err.message).toBe('Telegram sendMessage to chat 999: HTTP 400: Bad Request: chat not found');
    expect(err.message).not.toContain('secret');
  });

  it('retries a 500 and a 429, taking the wait from retry_after', async () => {
    api.reply = () => ({ status: 500, body: { ok: false, description: 'Internal Server Error' } });
    const e500 = await failure(telegram.send(note(), never));
    expect(e500).toMatchObject({ retryable: true, status: 500 });
    api.reply = () => ({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 7',
        parameters: { retry_after: 7 },
      },
    });
    const e429 = await failure(telegram.send(note(), never));
    expect(e429).toMatchObject({ retryable: true, status: 429, retryAfterMs: 7_000 });
  });

  it('fails retryably when the service is down or does not answer in time', async () => {
    await api.stop();
    const down = await failure(telegram.send(note(), never));
    expect(down.retryable).toBe(true);
    // A kept-alive socket the server dropped gives UND_ERR_SOCKET, a fresh connect ECONNREFUSED.
    expect(down.message).toMatch(/no connection \((ECONNREFUSED|UND_ERR_SOCKET)\)/);
    await api.start();
    api.reply = () => 'hang';
    const quick = createTelegramNotifier({ token: TOKEN, baseUrl: api.url, timeoutMs: 200 });
    const started = performance.now();
    const slow = await failure(quick.send(note(), never));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(slow.message).toContain('no answer within 200 ms');
  });

  it('describes its bot with getMe', async () => {
    api.reply = () => ({
      status: 200,
      body: {
        ok: true,
        result: { id: 77, is_bot: true, first_name: 'Flightdeck', username: 'flightdeck_bot' },
      },
    });
    expect(await telegram.getMe()).toEqual({ id: 77, username: 'flightdeck_bot', firstName: 'Flightdeck' });
    expect(api.requests[0]!).toMatchObject({ method: 'GET', path: `/bot${TOKEN}/getMe` });
  });
});

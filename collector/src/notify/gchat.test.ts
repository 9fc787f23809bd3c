import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Notification, NotifyError } from './contract';
import { createGChatNotifier } from './gchat';
import { alertLink, alertNotification } from './messages';
import { type CaptureServer, startCaptureServer } from './test-servers';

const never = new AbortController().signal;
const WEBHOOK = 'https://chat.googleapis.com/v1/spaces/AAAA123/messages?key=k1&token=t%3D1';

function note(webhookUrl = WEBHOOK): Notification {
  return alertNotification({
    id: 'n1',
    tenant: 't1',
    recipient: { channel: 'gchat', webhookUrl },
    locale: 'en',
    alert: {
      event: 'acknowledged',
      serverName: 'app-1 <users/all>',
      alertType: 'HTTP 5xx rate',
      status: 'R',
      acknowledgedBy: 'Ana',
      link: alertLink('https://fd.example.com', 1, 'nginx'),
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

describe('Google Chat notifier', () => {
  let api: CaptureServer;
  const gchat = () => createGChatNotifier({ baseUrl: api.url, timeoutMs: 2_000 });
  beforeAll(async () => {
    api = await startCaptureServer();
  });
  beforeEach(() => {
    api.requests.length = 0;
    api.reply = () => ({ status: 200, body: { name: 'spaces/AAAA123/messages/1' } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('posts the text to the space webhook, path and query kept, on the configured base', async () => {
    await gchat().send(note(), never);
    const req = api.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/spaces/AAAA123/messages?key=k1&token=t%3D1');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    const text = (req.json as { text: string }).text;
    expect(text.split('\n')[0]).toBe('Alert acknowledged: HTTP 5xx rate');
    expect(text).toContain('Acknowledged by: Ana');
    expect(text).toContain('app-1 <\u200busers/all>');
  });

  it('retries 500 and 429 (with Retry-After) and fails for good on 400', async () => {
    api.reply = () => ({ status: 500, body: { error: { code: 500, message: 'Internal error' } } });
    expect(await failure(gchat().send(note(), never))).toMatchObject({ retryable: true, status: 500 });
    api.reply = () => ({
      status: 429,
      headers: { 'retry-after': '2' },
      body: { error: { message: 'Quota' } },
    });
    expect(await failure(gchat().send(note(), never))).toMatchObject({
      retryable: true,
      retryAfterMs: 2_000,
    });
    api.reply = () => ({ status: 400, body: { error: { code: 400, message: 'Invalid JSON payload' } } });
    const bad = await failure(gchat().send(note(), never));
    expect(bad).toMatchObject({ retryable: false, status: 400 });
    expect(bad.message).toBe('Google Chat space AAAA123: HTTP 400: Invalid JSON payload');
  });

  it('refuses a webhook URL that is not Google Chat', async () => {
    const err = await failure(gchat().send(note('http://169.254.169.254/latest/meta-data'), never));
    expect(err.retryable).toBe(false);
    expect(api.requests).toHaveLength(0);
  });
});

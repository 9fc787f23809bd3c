import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Notification, NotifyError, type Recipient } from './contract';
import { alertLink, alertNotification } from './messages';
import { createSlackNotifier, type SlackNotifier } from './slack';
import { type CaptureServer, startCaptureServer } from './test-servers';

const never = new AbortController().signal;

function note(recipient: Recipient, tenant = 't1'): Notification {
  return alertNotification({
    id: 'n1',
    tenant,
    recipient,
    locale: 'es',
    alert: {
      event: 'resolved',
      serverName: 'db <prod> & co',
      alertType: 'Replication lag',
      status: 'G',
      link: alertLink('https://fd.example.com', 9, 'mysql'),
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

describe('Slack notifier', () => {
  let api: CaptureServer;
  let hooks: CaptureServer;
  let slack: SlackNotifier;
  beforeAll(async () => {
    api = await startCaptureServer();
    hooks = await startCaptureServer();
    slack = createSlackNotifier({
      token: (tenant) => (tenant === 't1' ? 'xoxb-t1' : undefined),
      baseUrl: api.url,
      webhookBaseUrl: hooks.url,
      timeoutMs: 2_000,
    });
  });
  beforeEach(() => {
    api.requests.length = 0;
    hooks.requests.length = 0;
    api.reply = () => ({ status: 200, body: { ok: true, channel: 'C1', ts: '1.2' } });
    hooks.reply = () => ({ status: 200, body: 'ok' });
  });
  afterAll(async () => {
    await api?.close();
    await hooks?.close();
  });

  it('posts chat.postMessage with the tenant bot token and escaped mrkdwn', async () => {
    await slack.send(note({ channel: 'slack', conversation: '#ops' }), never);
    const req = api.requests[0]!;
    expect(req.path).toBe('/api/chat.postMessage');
    expect(req.headers.authorization).toBe('Bearer xoxb-t1');
    expect(req.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = req.json as { channel: string; text: string };
    expect(body.channel).toBe('#ops');
    expect(body.text.split('\n')[0]).toBe('✅ *Alerta resuelta: Replication lag*');
    expect(body.text).toContain('Servidor: db &lt;prod&gt; &amp; co');
    expect(body.text).toContain('<https://fd.example.com/flightdeck/services/9/mysql|Abrir en Flightdeck>');
  });

  it('treats a 200 answer with ok:false as a failure, retryable only for transient errors', async () => {
    api.reply = () => ({ status: 200, body: { ok: false, error: 'channel_not_found' } });
    const gone = await failure(slack.send(note({ channel: 'slack', conversation: '#gone' }), never));
    expect(gone).toMatchObject({
      retryable: false,
      message: 'Slack chat.postMessage to #gone: channel_not_found',
    });
    api.reply = () => ({ status: 200, body: { ok: false, error: 'internal_error' } });
    const busy = await failure(slack.send(note({ channel: 'slack', conversation: '#ops' }), never));
    expect(busy.retryable).toBe(true);
  });

  it('honours Retry-After on 429 and retries 5xx', async () => {
    api.reply = () => ({
      status: 429,
      headers: { 'retry-after': '3' },
      body: { ok: false, error: 'ratelimited' },
    });
    const limited = await failure(slack.send(note({ channel: 'slack', conversation: '#ops' }), never));
    expect(limited).toMatchObject({ retryable: true, status: 429, retryAfterMs: 3_000 });
    api.reply = () => ({ status: 503, body: 'unavailable' });
    expect(
      (await failure(slack.send(note({ channel: 'slack', conversation: '#ops' }), never))).retryable,
    ).toBe(true);
  });

  it('fails for good when the tenant has no bot token, without calling Slack', async () => {
    const err = await failure(slack.send(note({ channel: 'slack', conversation: '#ops' }, 't2'), never));
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('no Slack bot token for tenant t2');
    expect(api.requests).toHaveLength(0);
  });

  it('posts to an incoming webhook on the configured base, keeping its path', async () => {
    const webhookUrl = 'https://hooks.slack.com/services/T0/B0/XyZ';
    await slack.send(note({ channel: 'slack', webhookUrl }), never);
    expect(api.requests).toHaveLength(0);
    const req = hooks.requests[0]!;
    expect(req.path).toBe('/services/T0/B0/XyZ');
    expect(req.headers.authorization).toBeUndefined();
    expect((req.json as { text: string }).text).toContain('db &lt;prod&gt;');
    hooks.reply = () => ({ status: 404, body: 'no_service' });
    const err = await failure(slack.send(note({ channel: 'slack', webhookUrl }), never));
    expect(err).toMatchObject({ retryable: false, status: 404 });
    expect(err.message).toBe('Slack incoming webhook: HTTP 404: no_service');
  });

  it('refuses a webhook URL on another host', async () => {
    const err = await failure(
      slack.send(note({ channel: 'slack', webhookUrl: 'https://evil.example.com/services/x' }), never),
    );
    expect(err.retryable).toBe(false);
    expect(hooks.requests).toHaveLength(0);
  });

  it('describes the bot token with auth.test', async () => {
    api.reply = () => ({
      status: 200,
      body: { ok: true, url: 'https://acme.slack.com/', team: 'Acme', user: 'flightdeck', bot_id: 'B1' },
    });
    expect(await slack.authTest('t1')).toEqual({
      team: 'Acme',
      user: 'flightdeck',
      botId: 'B1',
      url: 'https://acme.slack.com/',
    });
    expect(api.requests[0]!.path).toBe('/api/auth.test');
  });
});

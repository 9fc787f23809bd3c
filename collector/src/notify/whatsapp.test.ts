import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Notification, NotifyError } from './contract';
import { alertLink, alertNotification } from './messages';
import { type CaptureServer, startCaptureServer } from './test-servers';
import { createWhatsAppNotifier, type WhatsAppNotifier } from './whatsapp';

const never = new AbortController().signal;

function note(phoneNumberId?: string): Notification {
  return alertNotification({
    id: 'n1',
    tenant: 't1',
    recipient: { channel: 'whatsapp', to: '+5511999990000', ...(phoneNumberId ? { phoneNumberId } : {}) },
    locale: 'pt',
    alert: {
      event: 'new',
      serverName: 'erp-db',
      alertType: 'Conexões acima de 80 %',
      status: 'Y',
      link: alertLink('https://fd.example.com', 4, 'postgresql'),
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

function graphError(code: number, message: string) {
  return { error: { message, type: 'OAuthException', code, fbtrace_id: 'x' } };
}

describe('WhatsApp notifier', () => {
  let api: CaptureServer;
  let whatsapp: WhatsAppNotifier;
  beforeAll(async () => {
    api = await startCaptureServer();
    whatsapp = createWhatsAppNotifier({
      token: 'EAAG-token',
      phoneNumberId: '1000',
      baseUrl: api.url,
      apiVersion: 'v21.0',
      timeoutMs: 2_000,
    });
  });
  beforeEach(() => {
    api.requests.length = 0;
    api.reply = () => ({
      status: 200,
      body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.1' }] },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('posts a text message from the sender number with the bearer token', async () => {
    await whatsapp.send(note('2000'), never);
    const req = api.requests[0]!;
    expect(req.path).toBe('/v21.0/2000/messages');
    expect(req.headers.authorization).toBe('Bearer EAAG-token');
    const n = note();
    expect(req.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5511999990000',
      type: 'text',
      text: { preview_url: false, body: n.text },
    });
    expect(n.text).toContain('Novo alerta: Conexões acima de 80 %');
  });

  it('uses the default sender when the recipient names none', async () => {
    await whatsapp.send(note(), never);
    expect(api.requests[0]!.path).toBe('/v21.0/1000/messages');
  });

  it('retries 5xx, 429 and Graph rate-limit codes; fails for good on other 4xx', async () => {
    api.reply = () => ({ status: 500, body: graphError(2, 'Service temporarily unavailable') });
    expect(await failure(whatsapp.send(note(), never))).toMatchObject({ retryable: true, status: 500 });
    api.reply = () => ({
      status: 429,
      headers: { 'retry-after': '1' },
      body: graphError(4, 'Too many calls'),
    });
    expect(await failure(whatsapp.send(note(), never))).toMatchObject({
      retryable: true,
      retryAfterMs: 1_000,
    });
    api.reply = () => ({ status: 400, body: graphError(130429, 'Rate limit hit') });
    expect(await failure(whatsapp.send(note(), never))).toMatchObject({ retryable: true, status: 400 });
    api.reply = () => ({ status: 400, body: graphError(131047, 'Re-engagement message') });
    const closed = await failure(whatsapp.send(note(), never));
    expect(closed).toMatchObject({ retryable: false, status: 400 });
    expect(closed.message).toBe(
      'WhatsApp message to 5511999990000: HTTP 400: Re-engagement message (code 131047)',
    );
    expect(closed.message).not.toContain('EAAG');
  });

  it('describes the business number', async () => {
    api.reply = () => ({
      status: 200,
      body: { id: '1000', display_phone_number: '+55 11 4000-0000', verified_name: 'Flightdeck' },
    });
    expect(await whatsapp.numberInfo('t1')).toEqual({
      id: '1000',
      displayPhoneNumber: '+55 11 4000-0000',
      verifiedName: 'Flightdeck',
    });
    expect(api.requests[0]!).toMatchObject({
      method: 'GET',
      path: '/v21.0/1000?fields=display_phone_number,verified_name',
    });
  });
});

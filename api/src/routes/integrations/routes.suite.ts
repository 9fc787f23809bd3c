import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricStore } from '@flightdeck/collector/store';
import { type CapturedRequest, type CaptureServer, startCaptureServer } from '@flightdeck/collector/testing';
import {
  GChatIntegration,
  GChatIntegrationData,
  IntegrationRemovedData,
  SigninData,
  SlackBotInfoData,
  SlackIntegration,
  TelegramBotInfoData,
  TelegramIntegration,
  TelegramIntegrationData,
  TelegramKeyData,
  UserIntegrationsData,
  WhatsAppBotInfoData,
  WhatsAppIntegration,
} from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { loadApiConfig } from '../../config';
import { createSecretBox, parseSecretsKey } from '../../crypto/secrets';
import type { Engine } from '../../db/kysely';
import { migrateToLatest } from '../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import { createAccount, expectError, expectOk, post } from '../auth/test-app';
import { KEY_RESEND_S, KEY_TTL_S } from './routes';
import { secretContext } from './targets';

const I = '/api/integrations/integration';
const BOT_TOKEN = '123456:test-bot-token';
const PHONE_ID = '1098765';
const SECRETS_KEY = 'a'.repeat(64);
const PASSWORD = 'correct-horse-battery';
const store = { kind: 'sqlite', health: async () => ({ state: 'ok' }) } as unknown as MetricStore;
const bus = { kind: 'in-process', health: async () => ({ state: 'ok' }) } as unknown as never;

/**
 * The chat integration calls through `app.request()`, per metadata DB engine, against one local
 * capture server standing in for the Telegram Bot API, Slack, Google Chat and the WhatsApp Cloud API.
 */
export function integrationRoutesSuite(engine: Engine) {
  describe(`chat integrations on ${engine}`, () => {
    let t: TestDatabase;
    let capture: CaptureServer;
    let app: ReturnType<typeof createApp>;
    let bare: ReturnType<typeof createApp>;
    let token: string;
    let userId: number;
    let customerId: number;
    let dir: string;
    /** What the stand-in Telegram answers getUpdates with. */
    let updates: unknown[] = [];
    const seen = (path: string) => capture.requests.filter((r) => r.path.startsWith(path));
    const call = (path: string, body: unknown = {}, app_ = app) => post(app_, `${I}/${path}`, body, token);

    beforeAll(async () => {
      capture = await startCaptureServer();
      capture.reply = (req: CapturedRequest) => {
        const bot = `/bot${BOT_TOKEN}`;
        if (req.path === `${bot}/getMe`) {
          return {
            status: 200,
            body: { ok: true, result: { id: 42, username: 'fd_alerts_bot', first_name: 'Flightdeck' } },
          };
        }
        if (req.path.startsWith(`${bot}/getUpdates`))
          return { status: 200, body: { ok: true, result: updates } };
        if (req.path === '/api/auth.test') {
          return { status: 200, body: { ok: true, team: 'Ops Team', user: 'flightdeck', bot_id: 'B0BOT' } };
        }
        if (req.path === `/v21.0/${PHONE_ID}/messages`) {
          return { status: 200, body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.1' }] } };
        }
        if (req.path.startsWith(`/v21.0/${PHONE_ID}?`)) {
          return {
            status: 200,
            body: { id: PHONE_ID, display_phone_number: '+1 555 0100', verified_name: 'Flightdeck' },
          };
        }
        return { status: 404, body: { ok: false, description: 'Not Found' } };
      };
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      dir = mkdtempSync(join(tmpdir(), 'fd-integrations-'));
      const logger = pino({ level: 'silent' });
      const deps = { db: t.db, store, bus, logger, version: '0.0.0-test' };
      app = createApp({
        ...deps,
        config: loadApiConfig({
          DATA_DIR: dir,
          SECRETS_KEY,
          TELEGRAM_BOT_TOKEN: BOT_TOKEN,
          TELEGRAM_API_URL: capture.url,
          SLACK_BOT_TOKEN: 'xoxb-test',
          SLACK_API_URL: capture.url,
          SLACK_WEBHOOK_URL: capture.url,
          GCHAT_API_URL: capture.url,
          WHATSAPP_TOKEN: 'wa-test-token',
          WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
          WHATSAPP_API_URL: capture.url,
        }),
      });
      bare = createApp({ ...deps, config: loadApiConfig({ DATA_DIR: dir, SECRETS_KEY }) });
      const user = await createAccount(t.db, 'ops@example.com', PASSWORD, { locale: 'pt' });
      userId = user.id;
      customerId = user.customer_id;
      const res = await post(app, '/api/signin', { email: 'ops@example.com', password: PASSWORD });
      token = (await expectOk(res, SigninData)).data.token;
    });
    afterAll(async () => {
      await capture?.close();
      await t?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('answers no integrations for a new user and refuses calls without a session', async () => {
      expect((await expectOk(await call('get_user_integrations'), UserIntegrationsData)).data).toEqual([]);
      await expectError(await post(app, `${I}/telegram/get_user_info`, {}), 401, 'unauthorized');
    });

    it('links a Telegram chat when the bot receives /start with the key, then disables, enables and removes it', async () => {
      const bot = (await expectOk(await call('telegram/bot_info'), TelegramBotInfoData)).data;
      expect(bot).toEqual({
        username: 'fd_alerts_bot',
        name: 'Flightdeck',
        link: 'https://t.me/fd_alerts_bot',
      });

      const issued = (await expectOk(await call('telegram/integration_key'), TelegramKeyData)).data;
      expect(issued.key).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(issued.link).toBe(`https://t.me/fd_alerts_bot?start=${issued.key}`);
      const waiting = (await expectOk(await call('telegram/get_user_info'), TelegramIntegrationData)).data;
      expect(waiting).toMatchObject({ status: 'disabled', chat_id: null, key_expires_at: issued.expires_at });
      await expectError(await call('telegram/enable'), 409, 'conflict');

      updates = [
        { update_id: 500, message: { text: '/start notTheKey123', chat: { id: 1 } } },
        {
          update_id: 501,
          message: { text: `/start ${issued.key}`, chat: { id: 777 }, from: { username: 'ops_on_call' } },
        },
      ];
      const linked = (await expectOk(await call('telegram/get_user_info'), TelegramIntegration)).data;
      expect(linked).toMatchObject({
        status: 'enabled',
        chat_id: '777',
        username: 'ops_on_call',
        key_expires_at: null,
      });
      const polls = seen(`/bot${BOT_TOKEN}/getUpdates`);
      expect(polls.map((r) => new URL(r.path, capture.url).searchParams.get('offset'))).toEqual(['0', '0']);

      updates = [];
      const before = seen(`/bot${BOT_TOKEN}/getUpdates`).length;
      expect((await expectOk(await call('telegram/disable'), TelegramIntegration)).data.status).toBe(
        'disabled',
      );
      expect((await expectOk(await call('telegram/enable'), TelegramIntegration)).data.status).toBe(
        'enabled',
      );
      await expectOk(await call('telegram/get_user_info'), TelegramIntegration);
      expect(seen(`/bot${BOT_TOKEN}/getUpdates`)).toHaveLength(before);

      // A key sent again after it was used links nothing.
      await expectOk(await call('telegram/integration_key'), TelegramKeyData);
      updates = [{ update_id: 502, message: { text: `/start ${issued.key}`, chat: { id: 999 } } }];
      const again = (await expectOk(await call('telegram/get_user_info'), TelegramIntegration)).data;
      expect(again.chat_id).toBe('777');
      expect(
        new URL(seen(`/bot${BOT_TOKEN}/getUpdates`).at(-1)!.path, capture.url).searchParams.get('offset'),
      ).toBe('502');

      expect((await expectOk(await call('telegram/remove'), IntegrationRemovedData)).data).toEqual({
        removed: true,
      });
      expect((await expectOk(await call('telegram/get_user_info'), TelegramIntegrationData)).data).toBeNull();
      await expectError(await call('telegram/remove'), 404, 'not_found');
      await expectError(await call('telegram/disable'), 404, 'not_found');
    });

    it('names the variable to set when a channel is not configured', async () => {
      const res = await expectError(await call('telegram/bot_info', {}, bare), 400, 'bad_config');
      expect(res.message).toContain('TELEGRAM_BOT_TOKEN');
      const wa = await expectError(
        await call('whatsapp/send_key', { phone: '+5511999998888' }, bare),
        400,
        'bad_config',
      );
      expect(wa.message).toContain('WHATSAPP_TOKEN');
    });

    it('keeps a Slack webhook sealed and masked, switches to a bot channel and reads the bot', async () => {
      const hook = `${capture.url}/services/T0TEAM/B0HOOK/s3cr3tW3bh00k`;
      await expectError(
        await call('slack/set_chat', { webhook_url: 'https://example.com/services/a/b/c' }),
        400,
        'validation_failed',
      );
      await expectError(
        await call('slack/set_chat', { webhook_url: `${capture.url}/other/path` }),
        400,
        'validation_failed',
      );
      await expectError(await call('slack/set_chat', { channel: 'ops room' }), 400, 'validation_failed');

      const set = (await expectOk(await call('slack/set_chat', { webhook_url: hook }), SlackIntegration))
        .data;
      expect(set).toMatchObject({ status: 'enabled', mode: 'webhook' });
      expect(set.target).not.toContain('s3cr3t');
      expect(set.target).toContain('/services/');
      const row = await t.db
        .selectFrom('notification_integrations')
        .selectAll()
        .where('user_id', '=', userId)
        .where('channel', '=', 'slack')
        .executeTakeFirstOrThrow();
      expect(row.secret).not.toContain('s3cr3t');
      const box = createSecretBox(parseSecretsKey(SECRETS_KEY)!);
      expect(box.open(row.secret!, secretContext(customerId, userId, 'slack'))).toBe(hook);

      const info = (await expectOk(await call('slack/bot_info'), SlackBotInfoData)).data;
      expect(info).toEqual({ team: 'Ops Team', user: 'flightdeck', bot_id: 'B0BOT' });
      expect(seen('/api/auth.test')[0]!.headers.authorization).toBe('Bearer xoxb-test');

      const bot = (await expectOk(await call('slack/set_chat', { channel: '#ops-alerts' }), SlackIntegration))
        .data;
      expect(bot).toMatchObject({ mode: 'bot', target: '#ops-alerts', status: 'enabled' });
      expect((await expectOk(await call('slack/disable'), SlackIntegration)).data.status).toBe('disabled');
      expect((await expectOk(await call('slack/enable'), SlackIntegration)).data.status).toBe('enabled');
      await expectOk(await call('slack/remove'), IntegrationRemovedData);
    });

    it('registers a Google Chat space webhook only with its key and token, and never answers them', async () => {
      const hook = `${capture.url}/v1/spaces/AAAAspace1/messages?key=k3y-value&token=t0k3n-value`;
      await expectError(
        await call('gchat/register', { webhook_url: `${capture.url}/v1/spaces/AAAAspace1/messages?key=k` }),
        400,
        'validation_failed',
      );
      await expectError(
        await call('gchat/register', {
          webhook_url: 'https://evil.example.com/v1/spaces/A/messages?key=k&token=t',
        }),
        400,
        'validation_failed',
      );
      await expectError(await call('gchat/register', { webhook_url: 'not a url' }), 400, 'validation_failed');
      const reg = (await expectOk(await call('gchat/register', { webhook_url: hook }), GChatIntegration))
        .data;
      expect(reg.status).toBe('enabled');
      expect(reg.webhook_url).toBe(`${capture.url}/v1/spaces/AAAAspace1/me…?key=…&token=…`);
      const info = (await expectOk(await call('gchat/get_user_info'), GChatIntegrationData)).data;
      expect(info?.webhook_url).toBe(reg.webhook_url);
      expect((await expectOk(await call('gchat/disable'), GChatIntegration)).data.status).toBe('disabled');
      expect((await expectOk(await call('gchat/enable'), GChatIntegration)).data.status).toBe('enabled');
    });

    it('validates a WhatsApp number with the code sent to it in the user language', async () => {
      const bot = (await expectOk(await call('whatsapp/bot_info'), WhatsAppBotInfoData)).data;
      expect(bot).toEqual({ phone: '+1 555 0100', name: 'Flightdeck' });
      await expectError(await call('whatsapp/validate_key', { key: '123456' }), 400, 'invalid_code');
      await expectError(await call('whatsapp/send_key', { phone: 'call me' }), 400, 'validation_failed');

      const sent = (
        await expectOk(await call('whatsapp/send_key', { phone: '+5511999998888' }), WhatsAppIntegration)
      ).data;
      expect(sent).toMatchObject({ status: 'disabled', phone: null, pending_phone: '5511999998888' });
      await expectError(await call('whatsapp/enable'), 409, 'conflict');
      const message = seen(`/v21.0/${PHONE_ID}/messages`).at(-1)!;
      expect(message.headers.authorization).toBe('Bearer wa-test-token');
      const body = message.json as { to: string; text: { body: string } };
      expect(body.to).toBe('5511999998888');
      expect(body.text.body).toContain('Seu código de verificação do Flightdeck');
      const code = body.text.body.match(/\b(\d{6})\b/)![1]!;
      const wrong = code === '000000' ? '111111' : '000000';

      await expectError(await call('whatsapp/validate_key', { key: wrong }), 400, 'invalid_code');
      const ok = (await expectOk(await call('whatsapp/validate_key', { key: code }), WhatsAppIntegration))
        .data;
      expect(ok).toMatchObject({
        status: 'enabled',
        phone: '5511999998888',
        pending_phone: null,
        key_expires_at: null,
      });
      await expectError(await call('whatsapp/validate_key', { key: code }), 400, 'invalid_code');

      // A new code for another number (not before the resend wait): five wrong tries use it up,
      // the validated number stays.
      await expectOk(await call('whatsapp/send_key', { phone: '+5511988887777' }), WhatsAppIntegration);
      await expectError(await call('whatsapp/send_key', { phone: '+5511988887777' }), 429, 'rate_limited');
      await t.db
        .updateTable('notification_integrations')
        .set({ verify_until: Math.floor(Date.now() / 1000) + KEY_TTL_S - KEY_RESEND_S })
        .where('user_id', '=', userId)
        .where('channel', '=', 'whatsapp')
        .execute();
      await expectOk(await call('whatsapp/send_key', { phone: '+5511988887777' }), WhatsAppIntegration);
      const second = (seen(`/v21.0/${PHONE_ID}/messages`).at(-1)!.json as { text: { body: string } }).text
        .body;
      const code2 = second.match(/\b(\d{6})\b/)![1]!;
      const wrong2 = code2 === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++)
        await expectError(await call('whatsapp/validate_key', { key: wrong2 }), 400, 'invalid_code');
      const spent = await expectError(
        await call('whatsapp/validate_key', { key: code2 }),
        400,
        'invalid_code',
      );
      expect(spent.message).toContain('Too many');
      const info = (await expectOk(await call('whatsapp/get_user_info'), WhatsAppIntegration)).data;
      expect(info).toMatchObject({ phone: '5511999998888', status: 'enabled' });
    });

    it('lists every integration of the user with its status and no secret', async () => {
      const res = await call('get_user_integrations');
      const text = await res.clone().text();
      const list = (await expectOk(res, UserIntegrationsData)).data;
      expect(list.map((i) => [i.channel, i.status])).toEqual([
        ['gchat', 'enabled'],
        ['whatsapp', 'enabled'],
      ]);
      expect(text).not.toContain('t0k3n');
      expect(text).not.toContain('k3y-value');
    });

    it('answers a refusal of the messaging service as an error the user can read', async () => {
      const reply = capture.reply;
      capture.reply = () => ({
        status: 401,
        body: { ok: false, error_code: 401, description: 'Unauthorized' },
      });
      try {
        const err = await expectError(await call('telegram/bot_info'), 400, 'connection_failed');
        expect(err.message).toContain('Unauthorized');
        expect(err.message).not.toContain(BOT_TOKEN);
      } finally {
        capture.reply = reply;
      }
    });
  });
}

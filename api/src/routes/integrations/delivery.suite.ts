import { type CaptureServer, startCaptureServer, waitFor } from '@flightdeck/collector/testing';
import {
  GChatIntegration,
  SlackIntegration,
  TelegramIntegration,
  TelegramKeyData,
  Threshold,
} from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../db/kysely';
import { type AlertHarness, startAlertHarness } from '../alerts/test-harness';
import { expectOk } from '../auth/test-app';

const BOT_TOKEN = '123456:delivery-bot';
const I = '/integrations/integration';

/**
 * Alert notifications on the chat channels, end to end: a sample crossing a threshold reaches a
 * Slack webhook and a Telegram chat on a local capture server, in the user's language; a webhook
 * answering 500 once gets the message on the retry, once; a Google Chat space that never answers
 * delays neither the evaluation nor the other channels.
 */
export function integrationDeliverySuite(engine: Engine) {
  describe(`alert notifications on the chat channels on ${engine}`, () => {
    let h: AlertHarness;
    let capture: CaptureServer;
    let slackCalls = 0;
    const hookPath = '/services/T0TEAM/B0HOOK/s3cr3t';
    const gchatPath = '/v1/spaces/AAAAspace/messages';

    beforeAll(async () => {
      capture = await startCaptureServer();
      capture.reply = (req) => {
        if (req.path === hookPath) {
          slackCalls += 1;
          return slackCalls === 1 ? { status: 500, body: 'internal_error' } : { status: 200, body: 'ok' };
        }
        if (req.path.startsWith(gchatPath)) return 'hang';
        if (req.path === `/bot${BOT_TOKEN}/getMe`) {
          return {
            status: 200,
            body: { ok: true, result: { id: 1, username: 'fd_bot', first_name: 'Flightdeck' } },
          };
        }
        return { status: 200, body: { ok: true, result: [] } };
      };
      h = await startAlertHarness(engine, 'in-process', {
        SECRETS_KEY: 'b'.repeat(64),
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        TELEGRAM_API_URL: capture.url,
        SLACK_WEBHOOK_URL: capture.url,
        GCHAT_API_URL: capture.url,
      });
      await h.t.db.updateTable('users').set({ locale: 'es' }).where('id', '=', h.a.userId).execute();

      const slack = await h.call('POST', `${I}/slack/set_chat`, { webhook_url: `${capture.url}${hookPath}` });
      expect((await expectOk(slack, SlackIntegration)).data.status).toBe('enabled');
      const gchat = await h.call('POST', `${I}/gchat/register`, {
        webhook_url: `${capture.url}${gchatPath}?key=k&token=t`,
      });
      expect((await expectOk(gchat, GChatIntegration)).data.status).toBe('enabled');
      const { key } = (
        await expectOk(await h.call('POST', `${I}/telegram/integration_key`, {}), TelegramKeyData)
      ).data;
      const getUpdates = capture.reply;
      capture.reply = (req) =>
        req.path.startsWith(`/bot${BOT_TOKEN}/getUpdates`)
          ? {
              status: 200,
              body: {
                ok: true,
                result: [{ update_id: 9, message: { text: `/start ${key}`, chat: { id: 4242 } } }],
              },
            }
          : getUpdates(req);
      const linked = (
        await expectOk(await h.call('POST', `${I}/telegram/get_user_info`, {}), TelegramIntegration)
      ).data;
      expect(linked).toMatchObject({ chat_id: '4242', status: 'enabled' });
      capture.reply = getUpdates;
    });
    afterAll(async () => {
      await h?.close();
      await capture?.close();
    });

    it('delivers a threshold crossing to Slack (once, after a 500) and Telegram in the user language while Google Chat hangs', async () => {
      const th = await h.call('POST', '/services_monitored/alerts/defined_threshold', {
        server_id: h.a.serverId,
        metric: 'cpu.total',
        operator: 'gt',
        yellow: 50,
        red: 80,
        recovery: 40,
      });
      await expectOk(th, Threshold);
      await h.engine.refresh();
      const sentAt = performance.now();
      await h.publish('cpu.total', 93.5, 1_800_000_100_000);

      const telegram = () => capture.requests.filter((r) => r.path === `/bot${BOT_TOKEN}/sendMessage`);
      await waitFor(() => telegram().length === 1, 'the Telegram message');
      const message = telegram()[0]!;
      // Google Chat never answers (the queue gives up on it after 5 s): the others do not wait for it.
      expect(message.at - sentAt).toBeLessThan(3_000);
      expect(message.json).toMatchObject({ chat_id: '4242', parse_mode: 'MarkdownV2' });
      expect((message.json as { text: string }).text).toContain('Nueva alerta');

      await waitFor(() => slackCalls === 2, 'the Slack retry');
      const hooks = capture.requests.filter((r) => r.path === hookPath);
      expect((hooks[1]!.json as { text: string }).text).toContain('Nueva alerta');
      expect(capture.requests.some((r) => r.path.startsWith(gchatPath))).toBe(true);

      await waitFor(async () => {
        const row = await h.t.db
          .selectFrom('notification_integrations')
          .select(['last_sent_at', 'last_error'])
          .where('user_id', '=', h.a.userId)
          .where('channel', '=', 'slack')
          .executeTakeFirstOrThrow();
        return row.last_sent_at !== null && row.last_error === null;
      }, 'the Slack delivery recorded on its integration');
      // Nothing more arrives: one delivery each.
      await new Promise((r) => setTimeout(r, 500));
      expect(capture.requests.filter((r) => r.path === hookPath)).toHaveLength(2);
      expect(telegram()).toHaveLength(1);
    });
  });
}

import { randomBytes, randomInt } from 'node:crypto';
import {
  createSlackNotifier,
  createTelegramNotifier,
  createWhatsAppNotifier,
  type SlackNotifier,
  type TelegramNotifier,
  type WhatsAppNotifier,
} from '@flightdeck/collector/notify';
import {
  type GChatIntegration,
  GChatRegisterRequest,
  IntegrationEmptyRequest,
  type SlackBotInfoData,
  type SlackIntegration,
  SlackSetChatRequest,
  type TelegramBotInfoData,
  type TelegramIntegration,
  type TelegramKeyData,
  USER_LOCALES,
  type UserIntegrationsData,
  type UserLocale,
  type WhatsAppBotInfoData,
  type WhatsAppIntegration,
  WhatsAppSendKeyRequest,
  WhatsAppValidateKeyRequest,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import { createSecretBox, loadOrCreateSecretsKey, type SecretBox } from '../../crypto/secrets';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import {
  INTEGRATION,
  integrationRow,
  lifecycleRoutes,
  notConfigured,
  ok,
  serviceError,
  toView,
  upsertIntegration,
} from './shared';
import {
  GCHAT_MASK_KEEP,
  gchatWebhookProblem,
  keyHash,
  keyMatches,
  maskWebhook,
  SLACK_MASK_KEEP,
  secretContext,
  slackWebhookProblem,
} from './targets';
import { createTelegramLinker, type TelegramLinker } from './telegram-link';

/** How long a Telegram key or a WhatsApp code can be used. */
export const KEY_TTL_S = 15 * 60;
/** Wrong WhatsApp codes accepted before a new one must be asked for. */
export const MAX_KEY_ATTEMPTS = 5;
/** Shortest wait between two WhatsApp codes of one user, so the call cannot flood a number. */
export const KEY_RESEND_S = 30;

const WHATSAPP_CODE_TEXT: Record<UserLocale, (code: string) => string> = {
  en: (code) => `Your Flightdeck verification code is ${code}. It expires in 15 minutes.`,
  es: (code) => `Tu código de verificación de Flightdeck es ${code}. Caduca en 15 minutos.`,
  pt: (code) => `Seu código de verificação do Flightdeck é ${code}. Ele expira em 15 minutos.`,
};

const localeOf = (v: string | undefined): UserLocale =>
  (USER_LOCALES as readonly string[]).includes(v ?? '') ? (v as UserLocale) : 'en';

/**
 * The chat integrations of the signed-in user (spec section 7, "Integrations"), beside e-mail's
 * (../alerts/integrations.ts): Telegram through the product's bot (a one-time key the user sends
 * it, linked by polling getUpdates), Slack (an incoming webhook, or a conversation the product's
 * bot posts to), Google Chat (a space webhook) and WhatsApp (the Cloud API; a code sent to the
 * number proves it). Webhook URLs are sealed with the api's key and answered masked. `changed`
 * is told after every change (the alert core caches recipients).
 */
export function integrationRoutes(deps: AppDeps) {
  const { db, config, logger } = deps;
  const session = requireSession(db);
  const changed = (customerId: number) => deps.alerts?.recipientsChanged(customerId);
  let box: SecretBox | undefined;
  // Made on first use, so a process that never stores a webhook never writes a key file.
  const secrets = () => {
    box ??= createSecretBox(loadOrCreateSecretsKey(config.SECRETS_KEY, config.DATA_DIR));
    return box;
  };

  let telegram: { notifier: TelegramNotifier; linker: TelegramLinker } | undefined;
  function telegramOr400() {
    if (!config.TELEGRAM_BOT_TOKEN) throw notConfigured('telegram', 'TELEGRAM_BOT_TOKEN');
    telegram ??= {
      notifier: createTelegramNotifier({
        token: config.TELEGRAM_BOT_TOKEN,
        baseUrl: config.TELEGRAM_API_URL,
      }),
      linker: createTelegramLinker({
        db,
        logger: logger.child({ name: 'telegram' }),
        token: config.TELEGRAM_BOT_TOKEN,
        baseUrl: config.TELEGRAM_API_URL,
      }),
    };
    return telegram;
  }
  let slack: SlackNotifier | undefined;
  const slackBot = () => {
    if (!config.SLACK_BOT_TOKEN) throw notConfigured('slack', 'SLACK_BOT_TOKEN');
    slack ??= createSlackNotifier({ token: config.SLACK_BOT_TOKEN, baseUrl: config.SLACK_API_URL });
    return slack;
  };
  let whatsapp: WhatsAppNotifier | undefined;
  const whatsappOr400 = () => {
    if (!config.WHATSAPP_TOKEN || !config.WHATSAPP_PHONE_NUMBER_ID) {
      throw notConfigured('whatsapp', 'WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID');
    }
    whatsapp ??= createWhatsAppNotifier({
      token: config.WHATSAPP_TOKEN,
      phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
      baseUrl: config.WHATSAPP_API_URL,
      apiVersion: config.WHATSAPP_API_VERSION,
    });
    return whatsapp;
  };

  /** Links the user's Telegram chat when a key of theirs waits and the bot may have received it. */
  async function linkTelegram(customerId: number, userId: number) {
    const row = await integrationRow(db, customerId, userId, 'telegram');
    if (!row?.verify_hash || (row.verify_until ?? 0) < unixNow() || !config.TELEGRAM_BOT_TOKEN) return;
    try {
      if ((await telegramOr400().linker.poll()) > 0) changed(customerId);
    } catch (err) {
      // The answer still shows the waiting key; the next call polls again.
      logger.warn({ err }, 'Telegram updates not read');
    }
  }

  const view = <V>(row: Parameters<typeof toView>[0]) => toView(row) as V;

  const telegramRoutes = lifecycleRoutes(db, 'telegram', view<TelegramIntegration>, changed, linkTelegram)
    .post(`${INTEGRATION}/telegram/bot_info`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const me = await telegramOr400().notifier.getMe().catch(serviceError);
      return c.json(
        ok<TelegramBotInfoData>({
          username: me.username,
          name: me.firstName,
          link: `https://t.me/${me.username}`,
        }),
      );
    })
    .post(
      `${INTEGRATION}/telegram/integration_key`,
      session,
      jsonBody(IntegrationEmptyRequest),
      async (c) => {
        const { customerId, userId } = c.get('session');
        const me = await telegramOr400().notifier.getMe().catch(serviceError);
        const key = randomBytes(12).toString('base64url');
        const expiresAt = unixNow() + KEY_TTL_S;
        await upsertIntegration(db, customerId, userId, 'telegram', {
          verify_hash: keyHash(key),
          verify_until: expiresAt,
          verify_attempts: 0,
        });
        return c.json(
          ok<TelegramKeyData>({
            key,
            bot_username: me.username,
            link: `https://t.me/${me.username}?start=${key}`,
            expires_at: expiresAt,
          }),
        );
      },
    );

  const slackRoutes = lifecycleRoutes(db, 'slack', view<SlackIntegration>, changed)
    .post(`${INTEGRATION}/slack/bot_info`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId } = c.get('session');
      const info = await slackBot().authTest(String(customerId)).catch(serviceError);
      return c.json(ok<SlackBotInfoData>({ team: info.team, user: info.user, bot_id: info.botId }));
    })
    .post(`${INTEGRATION}/slack/set_chat`, session, jsonBody(SlackSetChatRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const req = c.req.valid('json');
      let row: Parameters<typeof toView>[0];
      if ('webhook_url' in req) {
        const problem = slackWebhookProblem(req.webhook_url, config.SLACK_WEBHOOK_URL);
        if (problem) throw new ApiError(400, 'validation_failed', `webhook_url: ${problem}`);
        row = await upsertIntegration(db, customerId, userId, 'slack', {
          target: maskWebhook(req.webhook_url, SLACK_MASK_KEEP),
          secret: secrets().seal(req.webhook_url, secretContext(customerId, userId, 'slack')),
          detail: 'webhook',
          status: 'enabled',
          last_error: null,
        });
      } else {
        slackBot();
        row = await upsertIntegration(db, customerId, userId, 'slack', {
          target: req.channel,
          secret: null,
          detail: 'bot',
          status: 'enabled',
          last_error: null,
        });
      }
      changed(customerId);
      return c.json(ok<SlackIntegration>(view<SlackIntegration>(row)));
    });

  const gchatRoutes = lifecycleRoutes(db, 'gchat', view<GChatIntegration>, changed).post(
    `${INTEGRATION}/gchat/register`,
    session,
    jsonBody(GChatRegisterRequest),
    async (c) => {
      const { customerId, userId } = c.get('session');
      const url = c.req.valid('json').webhook_url;
      const problem = gchatWebhookProblem(url, config.GCHAT_API_URL);
      if (problem) throw new ApiError(400, 'validation_failed', `webhook_url: ${problem}`);
      const row = await upsertIntegration(db, customerId, userId, 'gchat', {
        target: maskWebhook(url, GCHAT_MASK_KEEP),
        secret: secrets().seal(url, secretContext(customerId, userId, 'gchat')),
        status: 'enabled',
        last_error: null,
      });
      changed(customerId);
      return c.json(ok<GChatIntegration>(view<GChatIntegration>(row)));
    },
  );

  const whatsappRoutes = lifecycleRoutes(db, 'whatsapp', view<WhatsAppIntegration>, changed)
    .post(`${INTEGRATION}/whatsapp/bot_info`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId } = c.get('session');
      const info = await whatsappOr400().numberInfo(String(customerId)).catch(serviceError);
      return c.json(ok<WhatsAppBotInfoData>({ phone: info.displayPhoneNumber, name: info.verifiedName }));
    })
    .post(`${INTEGRATION}/whatsapp/send_key`, session, jsonBody(WhatsAppSendKeyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const phone = c.req.valid('json').phone.replace(/^\+/, '');
      const notifier = whatsappOr400();
      const previous = await integrationRow(db, customerId, userId, 'whatsapp');
      const sentAt =
        previous?.verify_hash && previous.verify_until !== null ? previous.verify_until - KEY_TTL_S : null;
      if (sentAt !== null && unixNow() - sentAt < KEY_RESEND_S) {
        throw ApiError.of(
          'rate_limited',
          `A code was just sent: wait ${KEY_RESEND_S} seconds before asking for another.`,
        );
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const user = await db.selectFrom('users').select('locale').where('id', '=', userId).executeTakeFirst();
      const locale = localeOf(user?.locale);
      const text = WHATSAPP_CODE_TEXT[locale](code);
      await notifier
        .send(
          {
            id: `whatsapp-key:${userId}:${Date.now()}`,
            tenant: String(customerId),
            recipient: { channel: 'whatsapp', to: phone },
            locale,
            subject: '',
            text,
          },
          AbortSignal.timeout(15_000),
        )
        .catch(serviceError);
      const row = await upsertIntegration(db, customerId, userId, 'whatsapp', {
        pending_target: phone,
        verify_hash: keyHash(code),
        verify_until: unixNow() + KEY_TTL_S,
        verify_attempts: 0,
      });
      return c.json(ok<WhatsAppIntegration>(view<WhatsAppIntegration>(row)));
    })
    .post(
      `${INTEGRATION}/whatsapp/validate_key`,
      session,
      jsonBody(WhatsAppValidateKeyRequest),
      async (c) => {
        const { customerId, userId } = c.get('session');
        const { key } = c.req.valid('json');
        const row = await integrationRow(db, customerId, userId, 'whatsapp');
        const now = unixNow();
        if (!row?.verify_hash || !row.pending_target || (row.verify_until ?? 0) < now) {
          throw ApiError.of(
            'invalid_code',
            'No code is waiting for this account, or it expired: ask for a new one.',
          );
        }
        if (row.verify_attempts >= MAX_KEY_ATTEMPTS) {
          throw ApiError.of('invalid_code', 'Too many wrong codes: ask for a new one.');
        }
        if (!keyMatches(key, row.verify_hash)) {
          await db
            .updateTable('notification_integrations')
            .set({ verify_attempts: row.verify_attempts + 1 })
            .where('id', '=', row.id)
            .execute();
          throw ApiError.of('invalid_code');
        }
        const updated = await db
          .updateTable('notification_integrations')
          .set({
            target: row.pending_target,
            pending_target: null,
            verify_hash: null,
            verify_until: null,
            verify_attempts: 0,
            status: 'enabled',
            last_error: null,
            updated_at: now,
          })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        changed(customerId);
        return c.json(ok<WhatsAppIntegration>(view<WhatsAppIntegration>(updated)));
      },
    );

  return new Hono<AppEnv>()
    .post(`${INTEGRATION}/get_user_integrations`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      await linkTelegram(customerId, userId);
      const rows = await db
        .selectFrom('notification_integrations')
        .selectAll()
        .where('customer_id', '=', customerId)
        .where('user_id', '=', userId)
        .orderBy('channel')
        .execute();
      return c.json(ok<UserIntegrationsData>(rows.map((r) => toView(r))));
    })
    .route('/', telegramRoutes)
    .route('/', slackRoutes)
    .route('/', gchatRoutes)
    .route('/', whatsappRoutes);
}

import { ConfigError, parseEnv } from '@flightdeck/schemas';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NOTIFY_ENV_FIELDS, notifierSettingsFromEnv } from './config';
import { createNotifiers } from './registry';

const logger = pino({ level: 'silent' });
const NotifyEnv = z.object(NOTIFY_ENV_FIELDS);

describe('notifier settings', () => {
  it('default every base URL to the real service', () => {
    const e = parseEnv(NotifyEnv, {});
    expect(e).toMatchObject({
      TELEGRAM_API_URL: 'https://api.telegram.org',
      SLACK_API_URL: 'https://slack.com',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com',
      GCHAT_API_URL: 'https://chat.googleapis.com',
      WHATSAPP_API_URL: 'https://graph.facebook.com',
      WHATSAPP_API_VERSION: 'v21.0',
    });
    // Webhook channels need no credential; the others need theirs.
    expect(createNotifiers(notifierSettingsFromEnv(e), logger).map((n) => n.channel)).toEqual([
      'slack',
      'gchat',
    ]);
  });

  it('configure a channel once its credential is set, with the base URLs given', async () => {
    const e = parseEnv(NotifyEnv, {
      TELEGRAM_BOT_TOKEN: '1:abc',
      TELEGRAM_API_URL: 'http://127.0.0.1:9001',
      WHATSAPP_TOKEN: 'EAAG',
      WHATSAPP_PHONE_NUMBER_ID: '1000',
    });
    const settings = notifierSettingsFromEnv({
      ...e,
      SMTP_URL: 'smtp://127.0.0.1:2525',
      SMTP_FROM: 'a@b.example',
    });
    expect(settings.telegram).toEqual({ token: '1:abc', baseUrl: 'http://127.0.0.1:9001' });
    expect(settings.whatsapp).toMatchObject({ token: 'EAAG', phoneNumberId: '1000', apiVersion: 'v21.0' });
    const notifiers = createNotifiers(settings, logger);
    expect(notifiers.map((n) => n.channel)).toEqual(['email', 'telegram', 'slack', 'gchat', 'whatsapp']);
    for (const n of notifiers) await n.close();
  });

  it('name the variable of a bad base URL and hide tokens', () => {
    expect(() => parseEnv(NotifyEnv, { SLACK_API_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(() => parseEnv(NotifyEnv, { SLACK_API_URL: 'ftp://x' })).toThrow(/SLACK_API_URL: expected a URL/);
    expect(() => parseEnv(NotifyEnv, { WHATSAPP_API_VERSION: '21' })).toThrow(/WHATSAPP_API_VERSION/);
  });
});

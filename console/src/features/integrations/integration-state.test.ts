import type { TelegramIntegration, WhatsAppIntegration } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { missingSetting, refusalText, telegramState, whatsAppState } from './integration-state';

const NOW = 1_763_000_000;
const delivery = { status: 'enabled' as const, created_at: NOW - 100, last_sent_at: null, last_error: null };

describe('missingSetting', () => {
  it('names the settings of a channel the server is not configured for', () => {
    const error = new ApiError(
      400,
      'bad_config',
      'WhatsApp is not configured on this server: set WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID.',
    );
    expect(missingSetting(error)).toBe('WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID');
  });

  it('says "not configured" without a name when the message names none', () => {
    expect(missingSetting(new ApiError(400, 'bad_config', 'The service configuration is not valid'))).toBe(
      '',
    );
  });

  it('is null for any other failure', () => {
    expect(missingSetting(new ApiError(502, 'mail_unavailable', 'set X.'))).toBeNull();
    expect(missingSetting(new Error('bad_config'))).toBeNull();
  });
});

describe('telegramState', () => {
  const base: TelegramIntegration = {
    channel: 'telegram',
    ...delivery,
    chat_id: null,
    username: null,
    key_expires_at: null,
  };
  it('is linked once a chat id is known, waiting while a key is valid, else none', () => {
    expect(telegramState(null, NOW)).toBe('none');
    expect(telegramState({ ...base, key_expires_at: NOW + 60 }, NOW)).toBe('waiting');
    expect(telegramState({ ...base, key_expires_at: NOW - 1 }, NOW)).toBe('none');
    expect(telegramState({ ...base, chat_id: '42', key_expires_at: NOW + 60 }, NOW)).toBe('linked');
  });
});

describe('whatsAppState', () => {
  const base: WhatsAppIntegration = {
    channel: 'whatsapp',
    ...delivery,
    phone: null,
    pending_phone: null,
    key_expires_at: null,
  };
  it('waits for a code sent to a new number even when an older number is validated', () => {
    expect(whatsAppState(undefined, NOW)).toBe('none');
    expect(whatsAppState({ ...base, phone: '5511999998888' }, NOW)).toBe('validated');
    expect(
      whatsAppState(
        { ...base, phone: '5511999998888', pending_phone: '5511988887777', key_expires_at: NOW + 60 },
        NOW,
      ),
    ).toBe('waiting');
    expect(whatsAppState({ ...base, pending_phone: '5511988887777', key_expires_at: NOW - 1 }, NOW)).toBe(
      'none',
    );
  });
});

describe('refusalText', () => {
  const i18n = { t: (key: string) => `t:${key}`, exists: () => true } as never;
  it("keeps the api's sentence of a validation refusal without its field", () => {
    const error = new ApiError(
      400,
      'validation_failed',
      'webhook_url: The webhook path must be /v1/spaces/<space>/messages.',
      ['webhook_url'],
    );
    expect(refusalText(i18n, error)).toBe('The webhook path must be /v1/spaces/<space>/messages.');
  });
  it('translates other failures by their code', () => {
    expect(refusalText(i18n, new ApiError(400, 'invalid_code', 'wrong'))).toBe('t:errors.invalid_code');
  });
});

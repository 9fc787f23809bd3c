import { describe, expect, it } from 'vitest';
import type { AlertSummary } from './contract';
import {
  alertLink,
  alertMessage,
  alertNotification,
  escapeSlackText,
  escapeTelegramMarkdown,
  neutralizeGoogleChatText,
} from './messages';

const link = alertLink('https://fd.example.com/', 12, 'postgresql');
const base: AlertSummary = {
  event: 'new',
  serverName: 'db-01',
  alertType: 'CPU usage above 90 %',
  status: 'R',
  value: '97.5 %',
  link,
  at: Date.UTC(2024, 4, 1, 10, 22, 31),
};

describe('alert messages', () => {
  it('link to the service page of the console', () => {
    expect(link).toBe('https://fd.example.com/flightdeck/services/12/postgresql');
    expect(alertLink('https://fd.example.com', 7)).toBe('https://fd.example.com/flightdeck/services/7');
    expect(alertLink('https://fd.example.com', 7, 'a b/c')).toBe(
      'https://fd.example.com/flightdeck/services/7/a%20b%2Fc',
    );
  });

  it('say in English what happened, where, how bad and where to look', () => {
    const m = alertMessage('en', base);
    expect(m.subject).toBe('[Flightdeck] New alert (critical): CPU usage above 90 % on db-01');
    expect(m.text).toBe(
      [
        'New alert: CPU usage above 90 %',
        'Server: db-01',
        'Status: critical',
        'Value: 97.5 %',
        'Time: 2024-05-01 10:22 UTC',
        `Open in Flightdeck: ${link}`,
      ].join('\n'),
    );
  });

  it('say it in Spanish', () => {
    const m = alertMessage('es', { ...base, status: 'Y' });
    expect(m.subject).toBe('[Flightdeck] Nueva alerta (advertencia): CPU usage above 90 % en db-01');
    expect(m.text).toContain(
      'Servidor: db-01\nEstado: advertencia\nValor: 97.5 %\nHora: 2024-05-01 10:22 UTC',
    );
    expect(m.text).toContain(`Abrir en Flightdeck: ${link}`);
    expect(alertMessage('es', { ...base, event: 'resolved', status: 'G' }).subject).toBe(
      '[Flightdeck] Alerta resuelta: CPU usage above 90 % en db-01',
    );
  });

  it('say it in Portuguese', () => {
    const m = alertMessage('pt', { ...base, event: 'recurring' });
    expect(m.subject).toBe('[Flightdeck] Alerta recorrente (crítico): CPU usage above 90 % em db-01');
    expect(m.text).toContain(
      'Servidor: db-01\nStatus: crítico\nValor: 97.5 %\nHorário: 2024-05-01 10:22 UTC',
    );
    expect(m.text).toContain(`Abrir no Flightdeck: ${link}`);
    const ack = alertMessage('pt', { ...base, event: 'acknowledged', acknowledgedBy: 'Ana' });
    expect(ack.subject).toBe('[Flightdeck] Alerta reconhecido: CPU usage above 90 % em db-01');
    expect(ack.text).toContain('Reconhecido por: Ana');
  });

  it('have a title for every lifecycle event in every language', () => {
    const titles = {
      en: ['New alert', 'Alert changed', 'Recurring alert', 'Alert resolved', 'Alert acknowledged'],
      es: ['Nueva alerta', 'Alerta modificada', 'Alerta recurrente', 'Alerta resuelta', 'Alerta reconocida'],
      pt: ['Novo alerta', 'Alerta alterado', 'Alerta recorrente', 'Alerta resolvido', 'Alerta reconhecido'],
    } as const;
    const events = ['new', 'updated', 'recurring', 'resolved', 'acknowledged'] as const;
    for (const locale of ['en', 'es', 'pt'] as const) {
      events.forEach((event, i) => {
        const m = alertMessage(locale, { ...base, event });
        expect(m.subject.startsWith(`[Flightdeck] ${titles[locale][i]}`)).toBe(true);
        expect(m.text.split('\n')[0]).toBe(`${titles[locale][i]}: CPU usage above 90 %`);
      });
    }
  });

  it('leave out the value and time when there are none, and the acknowledger outside acknowledgements', () => {
    const { value: _, at: __, ...bare } = base;
    const m = alertMessage('en', { ...bare, acknowledgedBy: 'Bob' });
    expect(m.text).not.toMatch(/Value|Time|Bob/);
  });

  it('keep user text on one line, so it cannot forge lines or e-mail headers', () => {
    const m = alertMessage('en', {
      ...base,
      serverName: 'db\r\nBcc: x@evil.test',
      alertType: 'a\nStatus: OK',
    });
    expect(m.subject).not.toMatch(/[\r\n]/);
    expect(m.text.split('\n')).toHaveLength(6);
    expect(m.text).toContain('Server: db Bcc: x@evil.test');
  });
});

describe('markup escaping', () => {
  it('escapes every MarkdownV2 reserved character for Telegram', () => {
    expect(escapeTelegramMarkdown('_*[]()~`>#+-=|{}.!\\')).toBe(
      '\\_\\*\\[\\]\\(\\)\\~\\`\\>\\#\\+\\-\\=\\|\\{\\}\\.\\!\\\\',
    );
    expect(escapeTelegramMarkdown('plain words 42')).toBe('plain words 42');
  });

  it('builds a Telegram message whose only markup is ours', () => {
    const m = alertMessage('en', { ...base, serverName: 'db_01 *prod* [x](http://evil.test)' });
    expect(m.telegramMarkdown).toBe(
      [
        '🔴 *New alert: CPU usage above 90 %*',
        'Server: db\\_01 \\*prod\\* \\[x\\]\\(http://evil\\.test\\)',
        'Status: critical',
        'Value: 97\\.5 %',
        'Time: 2024\\-05\\-01 10:22 UTC',
        `[Open in Flightdeck](${link})`,
      ].join('\n'),
    );
  });

  it('escapes &, < and > for Slack so user text cannot mention or link', () => {
    expect(escapeSlackText('a & b <!channel> <http://x|y>')).toBe(
      'a &amp; b &lt;!channel&gt; &lt;http://x|y&gt;',
    );
    const m = alertMessage('es', { ...base, serverName: '<!here> & co' });
    expect(m.slackMarkdown).toContain('Servidor: &lt;!here&gt; &amp; co');
    expect(m.slackMarkdown).toContain(`<${link}|Abrir en Flightdeck>`);
    expect(m.slackMarkdown.split('\n')[0]).toBe('🔴 *Nueva alerta: CPU usage above 90 %*');
  });

  it('keeps Google Chat from reading user text as a mention', () => {
    expect(neutralizeGoogleChatText('hi <users/all>')).toBe('hi <\u200busers/all>');
  });
});

describe('alert notifications', () => {
  it('carry the markup of the recipient channel', () => {
    const common = { id: 'a1:new:1', tenant: 't1', locale: 'en' as const, alert: base };
    const tg = alertNotification({ ...common, recipient: { channel: 'telegram', chatId: '42' } });
    expect(tg.markdown).toContain('🔴 *New alert');
    const slack = alertNotification({ ...common, recipient: { channel: 'slack', conversation: '#ops' } });
    expect(slack.markdown).toContain(`<${link}|Open in Flightdeck>`);
    const mail = alertNotification({
      ...common,
      recipient: { channel: 'email', address: 'ops@example.com' },
    });
    expect(mail.markdown).toBeUndefined();
    expect(mail.subject).toBe('[Flightdeck] New alert (critical): CPU usage above 90 % on db-01');
    expect(mail.text.startsWith('New alert: CPU usage above 90 %\n')).toBe(true);
  });
});

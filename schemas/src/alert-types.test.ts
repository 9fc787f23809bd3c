import { describe, expect, it } from 'vitest';
import {
  ALERT_TYPE_CATEGORIES,
  ALERT_TYPE_TEXTS,
  ALERT_TYPES,
  AlertTypeCode,
  AlertTypeId,
  alertTypeById,
  alertTypeText,
  alertTypeTitle,
  textPlaceholders,
} from './alert-types';
import { USER_LOCALES } from './api/auth';
import { metricByName } from './metrics-catalog';

describe('alert-type catalogue', () => {
  it('has the 49 ids 1 to 49, in order, and unique snake_case codes', () => {
    expect(ALERT_TYPES.map((t) => t.id)).toEqual(Array.from({ length: 49 }, (_, i) => i + 1));
    const codes = ALERT_TYPES.map((t) => t.code);
    expect(new Set(codes).size).toBe(49);
    for (const c of codes) expect(c).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('follows the spec’s list for its first types, compound entries split', () => {
    expect(ALERT_TYPES.slice(0, 10).map((t) => t.code)).toEqual([
      'server_unreachable',
      'too_many_connections',
      'replication_error',
      'replication_delayed',
      'free_disk_critical',
      'threads_connected',
      'threads_running',
      'threads_sleeping',
      'disk_space',
      'cpu',
    ]);
    expect(alertTypeById(41)?.code).toBe('thread_stuck');
  });

  it('gives every type a severity, a category and metrics the catalogue lists', () => {
    for (const t of ALERT_TYPES) {
      expect(['Y', 'R'], t.code).toContain(t.severity);
      expect(ALERT_TYPE_CATEGORIES, t.code).toContain(t.category);
      for (const m of t.metrics) expect(metricByName(m), `${t.code}: ${m}`).toBeDefined();
    }
  });

  it('has a title and a message in en, es and pt, with the same placeholders in each', () => {
    expect(Object.keys(ALERT_TYPE_TEXTS).sort()).toEqual(ALERT_TYPES.map((t) => t.code).sort());
    for (const t of ALERT_TYPES) {
      const texts = ALERT_TYPE_TEXTS[t.code];
      const en = textPlaceholders(texts.en.message).sort();
      expect(en.length, t.code).toBeGreaterThan(0);
      for (const locale of USER_LOCALES) {
        const { title, message } = texts[locale];
        expect(title.trim(), `${t.code} ${locale}`).not.toBe('');
        expect(textPlaceholders(title), `${t.code} ${locale} title`).toEqual([]);
        expect(textPlaceholders(message).sort(), `${t.code} ${locale}`).toEqual(en);
        // No stray braces: every brace belongs to a placeholder.
        expect(message.replace(/\{[a-z_]+\}/g, ''), `${t.code} ${locale}`).not.toMatch(/[{}]/);
      }
      // A message that is a copy of the English one was not translated.
      expect(texts.es.message, t.code).not.toBe(texts.en.message);
      expect(texts.pt.message, t.code).not.toBe(texts.en.message);
    }
  });

  it('fills the placeholders and leaves a missing one visible', () => {
    expect(alertTypeText(9, 'en', { server: 'db1', mount: '/var', value: '91%', threshold: '90%' })).toBe(
      'db1: /var is 91% full, above 90%.',
    );
    expect(alertTypeText(9, 'pt', { server: 'db1', mount: '/var', value: '91%', threshold: '90%' })).toBe(
      'db1: /var está com 91% de uso, acima de 90%.',
    );
    expect(alertTypeText(44, 'es', { url: 'https://example.com', value: 5, threshold: 14 })).toBe(
      'El certificado TLS de https://example.com vence en 5 días, por debajo de 14.',
    );
    expect(alertTypeText(26, 'en', { server: 'web1' })).toBe('web1: service {service} is down.');
    expect(alertTypeTitle(42, 'es')).toBe('Archivo crítico modificado');
  });

  it('refuses an id outside the catalogue', () => {
    expect(() => alertTypeText(50, 'en')).toThrow(/unknown alert type 50/);
    expect(() => alertTypeTitle(0, 'pt')).toThrow(RangeError);
    expect(alertTypeById(0)).toBeUndefined();
    expect(AlertTypeId.safeParse(49).success).toBe(true);
    expect(AlertTypeId.safeParse(50).success).toBe(false);
    expect(AlertTypeCode.safeParse('url_down').success).toBe(true);
    expect(AlertTypeCode.safeParse('url_up').success).toBe(false);
  });
});

import { DB_HEALTH_CHECKS, HEALTH_STATUSES, TABLE_COUNTERS } from '@flightdeck/schemas';
import { expect, it } from 'vitest';
import en from '../../i18n/en.features.json';
import es from '../../i18n/es.features.json';
import pt from '../../i18n/pt.features.json';
import { DATABASE_SERVICES } from './engines';

function leaf(dict: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], dict);
}

it('names every engine, table counter, health check and status the calls can answer, in each language', () => {
  const keys = [
    ...DATABASE_SERVICES.map((s) => `database.engines.${s}`),
    ...TABLE_COUNTERS.map((c) => `database.counters.${c}`),
    ...DB_HEALTH_CHECKS.map((c) => `database.health.checks.${c}`),
    ...HEALTH_STATUSES.map((s) => `database.health.status.${s}`),
    ...['up', 'down', 'unknown'].map((s) => `database.status.${s}`),
  ];
  for (const [locale, dict] of Object.entries({ en, es, pt })) {
    for (const key of keys) expect(leaf(dict, key), `${locale} ${key}`).toBeTypeOf('string');
  }
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  COMPONENT_STATES,
  CollectorComponentHealth,
  ERROR_CODES,
  TIME_RANGE_TYPES,
} from '@flightdeck/schemas';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { COMPONENT_NAMES } from '../features/about/api';
import { ApiError } from '../lib/api-client';
import enFeatures from './en.features.json';
import enCore from './en.json';
import { errorMessage } from './error-message';
import esFeatures from './es.features.json';
import esCore from './es.json';
import { LOCALES, localeCookie, readLocaleCookie } from './locale';
import ptFeatures from './pt.features.json';
import ptCore from './pt.json';

// What a signed-in page sees: the core file and the feature pages' file of each language.
const en = { ...enCore, ...enFeatures };
const es = { ...esCore, ...esFeatures };
const pt = { ...ptCore, ...ptFeatures };
const dictionaries = { en, es, pt } as const;

it('keeps the core and feature files of a language apart (no section in both)', () => {
  for (const [core, features] of [
    [enCore, enFeatures],
    [esCore, esFeatures],
    [ptCore, ptFeatures],
  ] as const) {
    expect(Object.keys(core).filter((k) => k in features)).toEqual([]);
  }
});

/** Every leaf key of a dictionary, dotted; arrays count as one leaf holding a list. */
function leafKeys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, child]) =>
      leafKeys(child, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [prefix];
}

function leafValue(dict: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], dict);
}

describe('translations', () => {
  const english = leafKeys(en).sort();

  it.each(LOCALES)('%s has exactly the keys of English', (locale) => {
    expect(leafKeys(dictionaries[locale]).sort()).toEqual(english);
  });

  it.each(LOCALES)('%s has no empty text and keeps the same interpolations and list lengths', (locale) => {
    for (const key of english) {
      const source = leafValue(en, key);
      const target = leafValue(dictionaries[locale], key);
      if (Array.isArray(source)) {
        expect(Array.isArray(target) && target.length, key).toBe(source.length);
        continue;
      }
      expect(typeof target === 'string' && target.trim().length > 0, key).toBe(true);
      const vars = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
      expect(vars(target as string), key).toEqual(vars(source as string));
    }
  });

  it('has every key the console asks for by name', () => {
    const srcDir = fileURLToPath(new URL('..', import.meta.url));
    const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx?$/.test(file) && !file.endsWith('.test.ts'),
    );
    const used = new Set<string>();
    for (const file of files) {
      const text = readFileSync(join(srcDir, file), 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(20);
    for (const key of used) expect(leafValue(en, key), key).toBeDefined();
  });

  it('names every health component, state and counter the API can report', () => {
    const counters = Object.keys(CollectorComponentHealth.shape).filter(
      (key) => !['state', 'detail', 'last_write_at'].includes(key),
    );
    const keys = [
      ...COMPONENT_NAMES.map((name) => `about.components.${name}`),
      ...COMPONENT_STATES.map((state) => `about.states.${state}`),
      ...counters.map((counter) => `about.counters.${counter}`),
      ...LOCALES.map((locale) => `common.languages.${locale}`),
      ...TIME_RANGE_TYPES.map((type) => `shell.period.types.${type}`),
    ];
    for (const key of keys) expect(leafValue(en, key), key).toBeTypeOf('string');
  });

  it('translates every API error code', () => {
    for (const code of ERROR_CODES) {
      for (const locale of LOCALES) {
        expect(leafValue(dictionaries[locale], `errors.${code}`), `${locale} errors.${code}`).toBeTypeOf(
          'string',
        );
      }
    }
  });
});

describe('errorMessage', () => {
  const i18n = createInstance();
  void i18n.init({ lng: 'es', resources: { es: { translation: es } }, initAsync: false });

  it('translates the error code', () => {
    const error = new ApiError(
      401,
      'invalid_credentials',
      'Invalid login: the e-mail or the password is wrong.',
    );
    expect(errorMessage(i18n, error)).toBe(es.errors.invalid_credentials);
  });

  it("falls back to the server's English message for a code without a translation", () => {
    const i18nWithout = createInstance();
    void i18nWithout.init({ lng: 'es', resources: { es: { translation: {} } }, initAsync: false });
    const error = new ApiError(429, 'rate_limited', 'Too many attempts.');
    expect(errorMessage(i18nWithout, error)).toBe('Too many attempts.');
  });
});

describe('locale cookie', () => {
  it('round-trips a locale and keeps it for 365 days', () => {
    const cookie = localeCookie('pt');
    expect(cookie).toContain(`Max-Age=${365 * 24 * 3600}`);
    expect(readLocaleCookie(`theme=x; ${cookie.split(';')[0]}; other=1`)).toBe('pt');
  });

  it('ignores an unknown locale', () => {
    expect(readLocaleCookie('locale=fr')).toBeUndefined();
  });
});

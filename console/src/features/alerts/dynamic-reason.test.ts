import type { DynamicReason } from '@flightdeck/schemas';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import enFeatures from '../../i18n/en.features.json';
import esFeatures from '../../i18n/es.features.json';
import ptFeatures from '../../i18n/pt.features.json';
import { dynamicWhy, formatReasonNumber, type Translate } from './dynamic-reason';

async function translator(lng: 'en' | 'es' | 'pt'): Promise<Translate> {
  const i18n = createInstance();
  await i18n.init({
    lng,
    resources: {
      en: { translation: enFeatures },
      es: { translation: esFeatures },
      pt: { translation: ptFeatures },
    },
    interpolation: { escapeValue: false },
  });
  return (key, vars) => i18n.t(key, vars ?? {});
}

const reason: DynamicReason = {
  algorithm: 'seasonal-median-mad',
  band: { lower: 16.54, median: 20, upper: 23.46 },
  season: 'hour_of_day',
  season_key: '14',
  score: 41.234,
};

describe('why a dynamic alert fired', () => {
  it('sets the value against the usual band, with the season and the score, in English', async () => {
    const why = dynamicWhy(reason, 'cpu.total', 95, await translator('en'), 'en');
    expect(why.line).toBe(
      '95 % vs usual band 16.5 %–23.5 % (median 20 %) · same hour of the day · score 41.2',
    );
    expect(why.tooltip).toContain('algorithm seasonal-median-mad');
  });

  it('names the season in the reader language and leaves the value out when none is given', async () => {
    const week = { ...reason, season: 'hour_of_week' as const, season_key: 'mon-14' };
    expect(dynamicWhy(week, 'cpu.total', null, await translator('es'), 'es').line).toBe(
      'Banda habitual 16,5 %–23,5 % (mediana 20 %) · misma hora de la semana · puntuación 41,2',
    );
    const all = { ...reason, season: 'global' as const, season_key: 'all' };
    expect(dynamicWhy(all, 'cpu.total', 95, await translator('pt'), 'pt').line).toBe(
      '95 % em relação à faixa usual 16,5 %–23,5 % (mediana 20 %) · todo o histórico · pontuação 41,2',
    );
  });

  it('writes numbers without a unit for a metric that is not a percentage, fewer decimals as they grow', () => {
    expect(formatReasonNumber(1234.56, 'load.1m', 'en')).toBe('1,235');
    expect(formatReasonNumber(0.1234, 'load.1m', 'en')).toBe('0.12');
  });
});

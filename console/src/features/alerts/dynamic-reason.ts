import { type DynamicReason, metricByName } from '@flightdeck/schemas';

/** The translate function the "why" line needs (i18next's `t`). */
export type Translate = (key: string, vars?: Record<string, string>) => string;

/** What a dynamic alert shows about why it fired: one compact line and a tooltip naming the algorithm. */
export interface DynamicWhy {
  line: string;
  tooltip: string;
}

/** A number of the band in the reader's language: fewer decimals as it grows, with `%` for a percentage. */
export function formatReasonNumber(v: number, metric: string, locale: string): string {
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  const text = new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(v);
  return metricByName(metric)?.unit === 'percent' ? `${text} %` : text;
}

/**
 * The "why" of a dynamic alert: the value (when given: an open alert's latest value) against the
 * usual band and its median, the season the band was learnt from and the score, e.g.
 * `95 % vs usual band 16.5 %–23.5 % (median 20 %) · same hour of the day · score 41.2`.
 */
export function dynamicWhy(
  reason: DynamicReason,
  metric: string,
  value: number | null,
  t: Translate,
  locale: string,
): DynamicWhy {
  const n = (v: number) => formatReasonNumber(v, metric, locale);
  const vars = {
    lower: n(reason.band.lower),
    upper: n(reason.band.upper),
    median: n(reason.band.median),
    season: t(`alerts.why.season.${reason.season}`),
    score: new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(reason.score),
  };
  return {
    line:
      value === null ? t('alerts.why.lineNoValue', vars) : t('alerts.why.line', { ...vars, value: n(value) }),
    tooltip: t('alerts.why.tooltip', { algorithm: reason.algorithm }),
  };
}

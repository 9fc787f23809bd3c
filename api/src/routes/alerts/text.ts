import {
  alertTypeText,
  type DynamicReason,
  formatBytes,
  metricByName,
  type UserLocale,
} from '@flightdeck/schemas';

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** A metric's value with its catalogue unit, as alert texts and notifications show it. */
export function formatMetricValue(metric: string, v: number): string {
  switch (metricByName(metric)?.unit) {
    case 'percent':
      return `${round(v, 1)} %`;
    case 'bytes':
      return formatBytes(v);
    case 'bytes_per_second':
      return `${formatBytes(v)}/s`;
    case 'per_second':
      return `${round(v, 2)}/s`;
    case 'seconds':
      return `${round(v, 2)} s`;
    case 'milliseconds':
      return `${round(v, 0)} ms`;
    case 'celsius':
      return `${round(v, 1)} °C`;
    case 'days':
      return `${round(v, 1)} d`;
    default:
      return String(round(v, 2));
  }
}

/** Canonical series labels (`mount=/,device=sda`) as placeholder values of the alert texts. */
export function labelVars(labels: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (labels === '') return out;
  for (const pair of labels.split(',')) {
    const eq = pair.indexOf('=');
    if (eq > 0) out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

export interface AlertTextInput {
  typeId: number;
  serverName: string;
  service: string;
  metric: string;
  labels: string;
  value: number;
  /** The level crossed, or null for the boolean operators and dynamic thresholds. */
  threshold: number | null;
  /** Why a dynamic threshold fired: the text names the band's bound crossed and adds the band and score. */
  dynamic?: DynamicReason | null;
}

/** The sentence a dynamic alert's text ends with, per language. */
const OUTSIDE_BAND: Record<UserLocale, (band: string, score: string) => string> = {
  en: (band, score) => ` Outside its usual band ${band} (score ${score}).`,
  es: (band, score) => ` Fuera de su banda habitual ${band} (puntuación ${score}).`,
  pt: (band, score) => ` Fora da sua faixa usual ${band} (pontuação ${score}).`,
};

/** The alert's text in a language, from its type's message (schemas/alert-types). */
export function alertText(input: AlertTextInput, locale: UserLocale): string {
  const labels = labelVars(input.labels);
  const d = input.dynamic;
  const crossed =
    input.threshold ?? (d ? (input.value >= d.band.median ? d.band.upper : d.band.lower) : null);
  const text = alertTypeText(input.typeId, locale, {
    ...labels,
    server: input.serverName,
    service: input.service || input.metric,
    value: formatMetricValue(input.metric, input.value),
    ...(crossed !== null ? { threshold: formatMetricValue(input.metric, crossed) } : {}),
    url: labels.url ?? input.serverName,
  });
  if (!d) return text;
  const band = `${formatMetricValue(input.metric, d.band.lower)}–${formatMetricValue(input.metric, d.band.upper)}`;
  return text + OUTSIDE_BAND[locale](band, String(Math.round(d.score * 10) / 10));
}

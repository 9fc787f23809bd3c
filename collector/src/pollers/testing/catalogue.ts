import { metricByName } from '@flightdeck/schemas';
import type { PollSample } from '../contract';

/**
 * Samples whose metric the catalogue does not list, or whose labels it does not allow, as
 * readable strings: a test expects none.
 */
export function outsideCatalogue(samples: readonly PollSample[]): string[] {
  const problems: string[] = [];
  for (const s of samples) {
    const def = metricByName(s.m);
    if (!def) {
      problems.push(`${s.m}: not in the catalogue`);
      continue;
    }
    for (const key of Object.keys(s.l ?? {})) {
      if (!def.labels?.includes(key)) problems.push(`${s.m}: label "${key}" not allowed`);
    }
    if (!Number.isFinite(s.v)) problems.push(`${s.m}: value ${s.v}`);
  }
  return problems;
}

/** The value of the sample `m` with exactly the labels `l` (none when omitted). */
export function sampleValue(
  samples: readonly PollSample[],
  m: string,
  l?: Record<string, string>,
): number | undefined {
  const want = JSON.stringify(l ?? {});
  return samples.find((s) => s.m === m && JSON.stringify(s.l ?? {}) === want)?.v;
}

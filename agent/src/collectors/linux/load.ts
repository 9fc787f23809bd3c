import type { Collector } from '../contract';
import { fields, readProcText, toDecimal, warnUnparsed } from './proc';

/** The 1, 5 and 15 minute load averages of /proc/loadavg, or `undefined` when the line is not one. */
export function parseLoadavg(text: string): [number, number, number] | undefined {
  const [a, b, c] = fields(text).slice(0, 3).map(toDecimal);
  if (a === undefined || b === undefined || c === undefined) return undefined;
  return [a, b, c];
}

/** Load averages: `load.1m`, `load.5m`, `load.15m`. */
export function loadCollector(): Collector {
  return {
    name: 'load',
    async collect(ctx) {
      const text = await readProcText(ctx, 'loadavg');
      if (text === undefined) return [];
      const load = parseLoadavg(text);
      if (!load) {
        warnUnparsed(ctx, 'loadavg', [text.trim()]);
        return [];
      }
      return [
        { m: 'load.1m', v: load[0] },
        { m: 'load.5m', v: load[1] },
        { m: 'load.15m', v: load[2] },
      ];
    },
  };
}

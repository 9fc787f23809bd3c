import type { Collector } from '../contract';
import { fields, readProcText, toDecimal, warnUnparsed } from './proc';

/** Seconds since boot: the first field of /proc/uptime. */
export function parseUptime(text: string): number | undefined {
  return toDecimal(fields(text)[0]);
}

/** `system.uptime`: seconds since boot; a drop between runs means the host rebooted. */
export function uptimeCollector(): Collector {
  return {
    name: 'uptime',
    async collect(ctx) {
      const text = await readProcText(ctx, 'uptime');
      if (text === undefined) return [];
      const seconds = parseUptime(text);
      if (seconds === undefined) {
        warnUnparsed(ctx, 'uptime', [text.trim()]);
        return [];
      }
      return [{ m: 'system.uptime', v: seconds }];
    },
  };
}

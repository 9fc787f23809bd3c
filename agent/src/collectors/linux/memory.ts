import type { Collector, SampleLike } from '../contract';
import { fields, percent, procPath, readProcText, toCount, warnUnparsed } from './proc';

/** /proc/meminfo as bytes by field name (`MemTotal`, `Cached`...). Values in kB are multiplied out. */
export function parseMeminfo(text: string): { values: Map<string, number>; unparsed: string[] } {
  const values = new Map<string, number>();
  const unparsed: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const [amount, unit] = fields(line.slice(colon + 1));
    const n = toCount(amount);
    if (colon <= 0 || n === undefined || (unit !== undefined && unit !== 'kB')) {
      unparsed.push(line);
      continue;
    }
    values.set(line.slice(0, colon), unit === 'kB' ? n * 1024 : n);
  }
  return { values, unparsed };
}

/**
 * Memory and swap from /proc/meminfo. `mem.used_bytes` is total minus available (what the kernel
 * says could be handed out without swapping), not total minus free; kernels before 3.14 have no
 * MemAvailable, so it is estimated there as free + buffers + cached.
 */
export function memoryCollector(): Collector {
  return {
    name: 'memory',
    async collect(ctx) {
      const text = await readProcText(ctx, 'meminfo');
      if (text === undefined) return [];
      const { values, unparsed } = parseMeminfo(text);
      warnUnparsed(ctx, 'meminfo', unparsed);
      const get = (k: string) => values.get(k);
      const samples: SampleLike[] = [];
      const push = (m: string, v: number | undefined) => {
        if (v !== undefined) samples.push({ m, v });
      };

      const total = get('MemTotal');
      const free = get('MemFree');
      const buffers = get('Buffers');
      const cached = get('Cached');
      let available = get('MemAvailable');
      if (available === undefined && free !== undefined) available = free + (buffers ?? 0) + (cached ?? 0);
      push('mem.total_bytes', total);
      push('mem.available_bytes', available);
      push('mem.cached_bytes', cached);
      push('mem.buffers_bytes', buffers);
      if (total !== undefined && available !== undefined) {
        const used = Math.max(0, total - available);
        push('mem.used_bytes', used);
        push('mem.used_pct', percent(used, total));
      }

      const swapTotal = get('SwapTotal');
      const swapFree = get('SwapFree');
      push('swap.total_bytes', swapTotal);
      if (swapTotal !== undefined && swapFree !== undefined) {
        const used = Math.max(0, swapTotal - swapFree);
        push('swap.used_bytes', used);
        push('swap.free_bytes', swapFree);
        // A host without swap has no meaningful percentage; leave it out rather than report 0 of 0.
        push('swap.used_pct', percent(used, swapTotal));
      }

      if (total === undefined) {
        ctx.logger.warn({ file: procPath(ctx, 'meminfo') }, `no MemTotal in ${procPath(ctx, 'meminfo')}`);
      }
      return samples;
    },
  };
}

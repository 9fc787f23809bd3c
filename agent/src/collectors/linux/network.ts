import type { Collector, SampleLike } from '../contract';
import { fields, readProcText, round, toCount, warnUnparsed } from './proc';

/** The counters of one interface in /proc/net/dev that the agent reports. */
export interface NetCounters {
  rxBytes: number;
  rxPackets: number;
  rxErrors: number;
  rxDrops: number;
  txBytes: number;
  txPackets: number;
  txErrors: number;
  txDrops: number;
}

/**
 * Interfaces of /proc/net/dev by name. The two header lines are skipped; the name is split at the
 * colon because old kernels print no blank between it and a long byte count (`eth0:123456`).
 */
export function parseNetDev(text: string): { interfaces: Map<string, NetCounters>; unparsed: string[] } {
  const interfaces = new Map<string, NetCounters>();
  const unparsed: string[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (line.trim() === '' || line.includes('|')) continue;
    const name = line.slice(0, Math.max(colon, 0)).trim();
    const n = fields(line.slice(colon + 1)).map(toCount);
    if (colon <= 0 || name === '' || n.length < 16 || n.some((v) => v === undefined)) {
      unparsed.push(line);
      continue;
    }
    const at = (i: number) => n[i] as number;
    interfaces.set(name, {
      rxBytes: at(0),
      rxPackets: at(1),
      rxErrors: at(2),
      rxDrops: at(3),
      txBytes: at(8),
      txPackets: at(9),
      txErrors: at(10),
      txDrops: at(11),
    });
  }
  return { interfaces, unparsed };
}

const RATES: ReadonlyArray<readonly [keyof NetCounters, string]> = [
  ['rxBytes', 'net.rx_bytes_rate'],
  ['txBytes', 'net.tx_bytes_rate'],
  ['rxPackets', 'net.rx_packets_rate'],
  ['txPackets', 'net.tx_packets_rate'],
  ['rxErrors', 'net.rx_errors_rate'],
  ['txErrors', 'net.tx_errors_rate'],
  ['rxDrops', 'net.rx_drops_rate'],
  ['txDrops', 'net.tx_drops_rate'],
];

/**
 * Per-interface traffic, errors and drops per second (label `interface`), from the difference between
 * two runs; the loopback is left out. An interface seen for the first time, or whose counters went
 * backwards (it was re-created, or a 32-bit counter wrapped), reports nothing until the next run.
 */
export function networkCollector(): Collector {
  let previous: { at: number; interfaces: Map<string, NetCounters> } | undefined;
  return {
    name: 'network',
    async collect(ctx) {
      const text = await readProcText(ctx, 'net/dev');
      if (text === undefined) return [];
      const { interfaces, unparsed } = parseNetDev(text);
      warnUnparsed(ctx, 'net/dev', unparsed);
      const prev = previous;
      previous = { at: ctx.now, interfaces };
      const seconds = prev ? (ctx.now - prev.at) / 1000 : 0;
      if (!prev || seconds <= 0) return [];
      const samples: SampleLike[] = [];
      for (const [iface, cur] of interfaces) {
        if (iface === 'lo') continue;
        const before = prev.interfaces.get(iface);
        if (!before) continue;
        if (RATES.some(([k]) => cur[k] < before[k])) {
          ctx.logger.debug({ iface }, 'network counters went backwards; skipping this interval');
          continue;
        }
        for (const [k, m] of RATES) {
          samples.push({ m, l: { interface: iface }, v: round((cur[k] - before[k]) / seconds, 3) });
        }
      }
      return samples;
    },
  };
}

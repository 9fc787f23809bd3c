import { readFile } from 'node:fs/promises';
import { TCP_STATES, type TcpState } from '@flightdeck/schemas/metrics-catalog';
import type { CollectContext, Collector } from '../contract';
import { procPath, readProcText, warnUnparsed } from './proc';

/**
 * The kernel's TCP state numbers (include/net/tcp_states.h) as the catalogue names them.
 * NEW_SYN_RECV (12) is a request socket the kernel lists since 4.4; it is a connection in SYN_RECV.
 */
const STATE_BY_CODE: ReadonlyMap<number, TcpState> = new Map([
  [1, 'established'],
  [2, 'syn_sent'],
  [3, 'syn_recv'],
  [4, 'fin_wait1'],
  [5, 'fin_wait2'],
  [6, 'time_wait'],
  [7, 'close'],
  [8, 'close_wait'],
  [9, 'last_ack'],
  [10, 'listen'],
  [11, 'closing'],
  [12, 'syn_recv'],
]);

// `  12: 0100007F:0CEA 00000000:0000 0A ...`: the state is the fourth field, two hex digits.
const SOCKET_LINE = /^\s*\d+:\s+[0-9A-Fa-f]+:[0-9A-Fa-f]+\s+[0-9A-Fa-f]+:[0-9A-Fa-f]+\s+([0-9A-Fa-f]{2})\s/;

/**
 * Adds the sockets of a /proc/net/tcp or /proc/net/tcp6 listing to `counts`. The header line is
 * skipped; a line that does not parse, or a state the kernel added later, is returned as unparsed.
 */
export function countTcpStates(text: string, counts: Map<TcpState, number>): string[] {
  const unparsed: string[] = [];
  let first = true;
  for (const line of text.split('\n')) {
    if (first) {
      first = false;
      if (line.includes('local_address')) continue;
    }
    if (line.trim() === '') continue;
    const m = SOCKET_LINE.exec(line);
    const state = m ? STATE_BY_CODE.get(Number.parseInt(m[1] as string, 16)) : undefined;
    if (state === undefined) {
      unparsed.push(line);
      continue;
    }
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  return unparsed;
}

/**
 * TCP sockets of the host per state (IPv4 and IPv6 together) as `tcp.connections{state}`, every
 * state every run (zeros included) so charts have no gaps. A kernel without IPv6 has no
 * /proc/net/tcp6: that is warned about once, not every run.
 */
export function tcpCollector(): Collector {
  let warnedNoTcp6 = false;
  return {
    name: 'tcp',
    async collect(ctx) {
      const counts = new Map<TcpState, number>();
      const v4 = await readProcText(ctx, 'net/tcp');
      const v6 = await readTcp6(ctx);
      if (v4 === undefined && v6 === undefined) return [];
      for (const [relative, text] of [
        ['net/tcp', v4],
        ['net/tcp6', v6],
      ] as const) {
        if (text !== undefined) warnUnparsed(ctx, relative, countTcpStates(text, counts));
      }
      return TCP_STATES.map((state) => ({ m: 'tcp.connections', l: { state }, v: counts.get(state) ?? 0 }));
    },
  };

  async function readTcp6(ctx: CollectContext): Promise<string | undefined> {
    if (!warnedNoTcp6) {
      const text = await readProcText(ctx, 'net/tcp6');
      if (text === undefined) warnedNoTcp6 = true;
      return text;
    }
    try {
      return await readFile(procPath(ctx, 'net/tcp6'), 'utf8');
    } catch {
      return undefined;
    }
  }
}

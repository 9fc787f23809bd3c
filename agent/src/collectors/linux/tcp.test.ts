import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TcpState } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { FIXTURES, recordingLogger, sampleValue } from '../../testing/support';
import type { CollectContext } from '../contract';
import { countTcpStates, tcpCollector } from './tcp';

const T0 = 1_795_268_000_000;
const host = (snapshot: string, logger: CollectContext['logger']): CollectContext => ({
  procRoot: join(FIXTURES, snapshot, 'proc'),
  now: T0,
  logger,
});
const byState = (samples: { l?: Record<string, string>; v: number }[]) =>
  Object.fromEntries(samples.filter((s) => s.v > 0).map((s) => [s.l?.state, s.v]));

describe('countTcpStates', () => {
  it('counts the sockets of a listing by state, skipping the header', () => {
    const counts = new Map<TcpState, number>();
    const unparsed = countTcpStates(
      [
        '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
        '   0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   107        0 10122 1',
        '   1: 0100007F:0CEA 0100007F:D2F0 0C 00000000:00000000 02:000001B6 00000000     0        0 0 0',
        '10000: 0100007F:0CEA 0100007F:D2F2 0B 00000000:00000000 00:00000000 00000000     0        0 0 0',
        '   3: 0100007F:0CEA 0100007F:D2F4 0D 00000000:00000000 00:00000000 00000000     0        0 0 0',
        '',
      ].join('\n'),
      counts,
    );
    // 0C is NEW_SYN_RECV (a request socket): a connection in syn_recv. 0D is no state the kernel has.
    expect(Object.fromEntries(counts)).toEqual({ listen: 1, syn_recv: 1, closing: 1 });
    expect(unparsed).toHaveLength(1);
  });
});

describe('tcpCollector', () => {
  it('reports every state of IPv4 and IPv6 together from the recorded listings', async () => {
    const { logger, warnings } = recordingLogger();
    const tcp = tcpCollector();
    const first = await tcp.collect(host('host-1', logger));
    expect(first).toHaveLength(11);
    expect(byState(first)).toEqual({ established: 2, time_wait: 2, listen: 11 });
    expect(sampleValue(first, 'tcp.connections', { state: 'syn_sent' })).toBe(0);
    // host-2: one established connection of /proc/net/tcp is now in close_wait.
    expect(byState(await tcp.collect(host('host-2', logger)))).toEqual({
      established: 1,
      close_wait: 1,
      time_wait: 2,
      listen: 11,
    });
    expect(warnings()).toEqual([]);
  });

  it('counts IPv4 alone on a kernel without IPv6, warning about tcp6 once', async () => {
    const root = await mkdtemp(join(tmpdir(), 'fd-tcp-'));
    try {
      await cp(join(FIXTURES, 'host-1/proc/net/tcp'), join(root, 'net/tcp'), { recursive: true });
      const { logger, warnings } = recordingLogger();
      const tcp = tcpCollector();
      const ctx = { procRoot: root, now: T0, logger };
      expect(byState(await tcp.collect(ctx))).toEqual({ established: 2, time_wait: 2, listen: 9 });
      expect(byState(await tcp.collect(ctx))).toEqual({ established: 2, time_wait: 2, listen: 9 });
      expect(warnings().map((w) => w.file)).toEqual([join(root, 'net/tcp6')]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('returns nothing and warns naming both files when neither can be read', async () => {
    const { logger, warnings } = recordingLogger();
    const ctx = host('missing', logger);
    expect(await tcpCollector().collect(ctx)).toEqual([]);
    expect(warnings().map((w) => w.file)).toEqual([
      join(ctx.procRoot, 'net/tcp'),
      join(ctx.procRoot, 'net/tcp6'),
    ]);
  });
});

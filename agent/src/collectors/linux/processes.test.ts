import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessSnapshot } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { FIXTURES, recordingLogger, sampleValue } from '../../testing/support';
import type { CollectContext, Collector } from '../contract';
import {
  commandLine,
  effectiveUid,
  kernelPageSize,
  parsePasswd,
  parsePidStat,
  parseProcsRunning,
  processCollector,
} from './processes';

const T0 = 1_795_268_000_000;
const PAGE = 4096;
const host = (snapshot: string, now: number, logger: CollectContext['logger']): CollectContext => ({
  procRoot: join(FIXTURES, snapshot, 'proc'),
  now,
  logger,
});
const tops = (c: Collector) => c.heartbeat?.()?.top_processes;
const pids = (list: ProcessSnapshot[] | undefined) => list?.map((p) => p.pid);

describe('parsePidStat', () => {
  it('counts fields from the last parenthesis, so a command name may hold blanks and parentheses', () => {
    const line =
      '4711 (my (odd) name) S 1 4711 4711 0 -1 4194304 10 0 0 0 70 30 0 0 20 0 3 0 5000 1000 250 18446744073709551615 0';
    expect(parsePidStat(line)).toEqual({
      pid: 4711,
      comm: 'my (odd) name',
      ticks: 100,
      startTime: 5000,
      rssPages: 250,
    });
    expect(parsePidStat('4711 (cut short) S 1 2 3')).toBeUndefined();
  });
});

describe('process helpers', () => {
  it('turns a NUL-separated cmdline into words and an empty one into [comm]', () => {
    expect(commandLine('gzip\0-9\0big file.log\0', 'gzip')).toBe('gzip -9 big file.log');
    expect(commandLine('redis-server 127.0.0.1:6379   \0\0', 'redis-server')).toBe(
      'redis-server 127.0.0.1:6379',
    );
    expect(commandLine('', 'kthreadd')).toBe('[kthreadd]');
    expect(commandLine(`x\0${'a'.repeat(5000)}`, 'x')).toHaveLength(2048);
  });

  it('reads the effective uid, procs_running/blocked and passwd names', () => {
    expect(effectiveUid('Name:\tsudo\nUid:\t1000\t0\t0\t0\n')).toBe(0);
    expect(parseProcsRunning('cpu 1 2 3 4\nprocs_running 3\nprocs_blocked 1\n')).toEqual({
      running: 3,
      blocked: 1,
    });
    expect(parseProcsRunning('cpu 1 2 3 4\n')).toEqual({});
    expect(parsePasswd('root:x:0:0::/root:/bin/sh\n# comment\nbad\npg:x:101:104::/:/bin/sh\n')).toEqual(
      new Map([
        [0, 'root'],
        [101, 'pg'],
      ]),
    );
  });

  it('finds the page size of the running kernel', () => {
    expect([4096, 16_384, 65_536]).toContain(kernelPageSize());
    expect(kernelPageSize('/nonexistent/smaps')).toBe(4096);
  });
});

describe('processCollector', () => {
  it('counts processes and ranks them by memory on the first run, with users and command lines', async () => {
    const { logger, warnings } = recordingLogger();
    const proc = processCollector({ pageSize: PAGE });
    const samples = await proc.collect(host('host-1', T0, logger));
    expect(samples).toEqual([
      { m: 'proc.running', v: 1 },
      { m: 'proc.blocked', v: 0 },
      { m: 'proc.count', v: 8 },
    ]);
    const top = tops(proc);
    expect(top?.by_cpu).toEqual([]);
    expect(pids(top?.by_memory)).toEqual([2934, 3769, 2186, 2944, 1, 2205, 2939, 2]);
    expect(top?.by_memory[0]).toEqual({
      pid: 2934,
      user: 'rabbitmq',
      command: expect.stringMatching(/^\/usr\/lib\/erlang\/erts-13\.1\.5\/bin\/beam\.smp -W w /),
      cpu_pct: 0,
      mem_bytes: 31_219 * PAGE,
    });
    const byPid = new Map(top?.by_memory.map((p) => [p.pid, p]));
    expect(byPid.get(3769)).toMatchObject({
      user: 'mysql',
      command: '/usr/sbin/mariadbd',
      mem_bytes: 25_639 * PAGE,
    });
    expect(byPid.get(2)).toMatchObject({ user: 'root', command: '[kthreadd]', mem_bytes: 0 });
    // uid 105 (mosquitto) is not in the recorded passwd subset: it is shown as the number.
    expect(byPid.get(2939)).toMatchObject({
      user: '105',
      command: 'mosquitto -d -c /etc/mosquitto/mosquitto.conf',
    });
    expect(byPid.get(2205)?.command).toBe('redis-server 127.0.0.1:6379');
    expect(warnings()).toEqual([]);
  });

  it('ranks by CPU from the difference between two runs, in % of one core', async () => {
    const { logger, warnings } = recordingLogger();
    const proc = processCollector({ pageSize: PAGE, top: 4 });
    await proc.collect(host('host-1', T0, logger));
    const samples = await proc.collect(host('host-2', T0 + 10_000, logger));
    expect(sampleValue(samples, 'proc.running')).toBe(3);
    expect(sampleValue(samples, 'proc.blocked')).toBe(1);
    // postgres (2186) exited; 4242 vanished between readdir and read (no stat); gzip (5000) is new.
    expect(sampleValue(samples, 'proc.count')).toBe(8);
    const top = tops(proc);
    // beam.smp +400 ticks, process_api +150, nats +50, gzip born with 30, redis +20, mosquitto +10.
    expect(top?.by_cpu.map((p) => [p.pid, p.cpu_pct])).toEqual([
      [2934, 40],
      [1, 15],
      [2944, 5],
      [5000, 3],
    ]);
    expect(top?.by_cpu[3]).toEqual({
      pid: 5000,
      user: '105',
      command: 'gzip -9 /var/log/big file.log',
      cpu_pct: 3,
      mem_bytes: 300 * PAGE,
    });
    expect(top?.by_memory.map((p) => [p.pid, p.cpu_pct, p.mem_bytes])).toEqual([
      [2934, 40, 32_219 * PAGE],
      [3769, 0, 25_639 * PAGE],
      [2944, 5, 4_199 * PAGE],
      [1, 15, 4_189 * PAGE],
    ]);
    expect(warnings()).toEqual([]);
  });

  it('leaves out of the lists a process that exits after its stat was read, and takes the next one', async () => {
    const root = await mkdtemp(join(tmpdir(), 'fd-proc-'));
    try {
      await cp(join(FIXTURES, 'host-1'), root, { recursive: true });
      await rm(join(root, 'proc/2934/status'));
      const { logger, warnings } = recordingLogger();
      const proc = processCollector({ pageSize: PAGE, top: 2 });
      const samples = await proc.collect({ procRoot: join(root, 'proc'), now: T0, logger });
      expect(sampleValue(samples, 'proc.count')).toBe(8);
      expect(pids(tops(proc)?.by_memory)).toEqual([3769, 2186]);
      expect(warnings()).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('shows uids and warns once naming the file when passwd cannot be read', async () => {
    const { logger, warnings } = recordingLogger();
    const proc = processCollector({ pageSize: PAGE, hostRoot: join(FIXTURES, 'missing') });
    await proc.collect(host('host-1', T0, logger));
    await proc.collect(host('host-2', T0 + 10_000, logger));
    expect(tops(proc)?.by_memory[0]).toMatchObject({ pid: 2934, user: '106' });
    expect(warnings().map((w) => w.file)).toEqual([join(FIXTURES, 'missing/etc/passwd')]);
  });

  it('returns what it has and warns naming the folder when /proc cannot be listed', async () => {
    const { logger, warnings } = recordingLogger();
    const ctx = host('missing', T0, logger);
    expect(await processCollector({ pageSize: PAGE }).collect(ctx)).toEqual([]);
    expect(warnings().map((w) => w.file)).toEqual([join(ctx.procRoot, 'stat'), ctx.procRoot]);
  });
});

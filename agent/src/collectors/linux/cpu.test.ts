import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fixtureContext, recordingLogger, sampleValue, tempProcRoot } from '../../testing/support';
import { cpuCollector, cpuPercentages, parseProcStat } from './cpu';

const T0 = 1_795_268_000_000;

describe('parseProcStat', () => {
  it('reads the all-cores line and each core of the recorded /proc/stat', async () => {
    const { cpus, unparsed } = parseProcStat(await readFile(join(FIXTURES, 'vm-1/stat'), 'utf8'));
    expect(unparsed).toEqual([]);
    expect([...cpus.keys()]).toEqual(['all', '0', '1']);
    expect(cpus.get('all')).toEqual({
      user: 29508,
      nice: 0,
      system: 9559,
      idle: 107248,
      iowait: 1173,
      irq: 0,
      softirq: 423,
      steal: 2642,
      guest: 0,
      guestNice: 0,
    });
    expect(cpus.get('1')?.iowait).toBe(1030);
  });

  it('counts the columns an old kernel lacks as 0 and reports lines it cannot read', () => {
    const { cpus, unparsed } = parseProcStat('cpu  10 1 5 100\ncpu0 10 1 5 x\nintr 1 2\n');
    expect(cpus.get('all')).toMatchObject({ user: 10, idle: 100, steal: 0, guestNice: 0 });
    expect(unparsed).toEqual(['cpu0 10 1 5 x']);
  });
});

describe('cpuPercentages', () => {
  it('does not count guest time twice and treats a counter that went backwards as 0', () => {
    const zero = {
      user: 0,
      nice: 0,
      system: 0,
      idle: 0,
      iowait: 50,
      irq: 0,
      softirq: 0,
      steal: 0,
      guest: 0,
      guestNice: 0,
    };
    // 60 user ticks of which 40 were a guest's, 40 idle; iowait went back from 50 to 45.
    const pcts = cpuPercentages(zero, { ...zero, user: 60, guest: 40, idle: 40, iowait: 45 });
    expect(pcts).toEqual({
      'cpu.user': 60,
      'cpu.system': 0,
      'cpu.iowait': 0,
      'cpu.steal': 0,
      'cpu.idle': 40,
      'cpu.total': 60,
    });
    expect(cpuPercentages(zero, zero)).toBeUndefined();
  });
});

describe('cpuCollector', () => {
  it('records the first reading and reports nothing until it has a second', async () => {
    const { logger } = recordingLogger();
    expect(await cpuCollector().collect(fixtureContext('vm-1', T0, logger))).toEqual([]);
  });

  it('turns two snapshots into percentages for all cores and per core', async () => {
    const { logger, warnings } = recordingLogger();
    const cpu = cpuCollector();
    await cpu.collect(fixtureContext('vm-1', T0, logger));
    const samples = await cpu.collect(fixtureContext('vm-2', T0 + 10_000, logger));

    // All cores: 2000 ticks; user 450, system 150 + softirq 10, iowait 100, steal 40, idle 1250.
    expect(sampleValue(samples, 'cpu.user')).toBe(22.5);
    expect(sampleValue(samples, 'cpu.system')).toBe(8);
    expect(sampleValue(samples, 'cpu.iowait')).toBe(5);
    expect(sampleValue(samples, 'cpu.steal')).toBe(2);
    expect(sampleValue(samples, 'cpu.idle')).toBe(62.5);
    expect(sampleValue(samples, 'cpu.total')).toBe(32.5);
    // cpu0: 1000 ticks; user 300, system 100 + softirq 10, iowait 20, steal 20, idle 550.
    expect(sampleValue(samples, 'cpu.user', { core: '0' })).toBe(30);
    expect(sampleValue(samples, 'cpu.system', { core: '0' })).toBe(11);
    expect(sampleValue(samples, 'cpu.total', { core: '0' })).toBe(43);
    // cpu1: 1000 ticks; user 150, system 50, iowait 80, steal 20, idle 700.
    expect(sampleValue(samples, 'cpu.iowait', { core: '1' })).toBe(8);
    expect(sampleValue(samples, 'cpu.idle', { core: '1' })).toBe(70);
    expect(sampleValue(samples, 'cpu.total', { core: '1' })).toBe(22);
    expect(samples).toHaveLength(18);
    expect(warnings()).toEqual([]);
  });

  it('returns nothing and warns naming the file when /proc/stat is missing', async () => {
    const { logger, warnings } = recordingLogger();
    const ctx = fixtureContext('missing', T0, logger);
    expect(await cpuCollector().collect(ctx)).toEqual([]);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.file).toBe(join(ctx.procRoot, 'stat'));
    expect(warnings()[0]?.msg).toContain(join(ctx.procRoot, 'stat'));
  });

  it('reports the cores it could read when a line is garbled, and warns about the file', async () => {
    const proc = await tempProcRoot('vm-1');
    try {
      const { logger, warnings } = recordingLogger();
      const cpu = cpuCollector();
      await cpu.collect({ procRoot: proc.root, now: T0, logger });
      await proc.load('vm-2');
      const text = await readFile(join(proc.root, 'stat'), 'utf8');
      await writeFile(join(proc.root, 'stat'), text.replace(/^cpu1 .*$/m, 'cpu1 garbage'));
      const samples = await cpu.collect({ procRoot: proc.root, now: T0 + 10_000, logger });
      expect(sampleValue(samples, 'cpu.total')).toBe(32.5);
      expect(sampleValue(samples, 'cpu.total', { core: '1' })).toBeUndefined();
      expect(warnings()[0]?.file).toBe(join(proc.root, 'stat'));
    } finally {
      await proc.remove();
    }
  });
});

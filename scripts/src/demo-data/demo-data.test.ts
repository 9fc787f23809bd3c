import { linuxCollectors } from '@flightdeck/agent';
import { metricByName, parseMetricBatch, TCP_STATES } from '@flightdeck/schemas';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { demoBatches, planDemoData } from './fill';
import { localTime } from './incidents';

/** A Monday 00:00 UTC, so a 7-day range holds five weekdays and a weekend. */
const END = Date.UTC(2026, 2, 16);
const HOUR = 3_600_000;

type Points = [ts: number, v: number][];

/** Every series of a plan's batches by `host metric{labels}`, and the batches themselves. */
function collect(options: Parameters<typeof planDemoData>[0]) {
  const plan = planDemoData(options);
  const series = new Map<string, Points>();
  const batches = [...demoBatches(plan)].flat();
  for (const b of batches) {
    for (const s of b.samples) {
      const labels = s.l ? Object.entries(s.l).map(([k, v]) => `${k}=${v}`) : [];
      const key = `${b.host} ${s.m}${labels.length ? `{${labels.join(',')}}` : ''}`;
      let points = series.get(key);
      if (!points) {
        points = [];
        series.set(key, points);
      }
      points.push([s.t ?? b.ts, s.v]);
    }
  }
  const get = (key: string) => {
    const points = series.get(key);
    if (!points) throw new Error(`no series ${key}`);
    return points;
  };
  return { plan, series, batches, get };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('demo data', () => {
  // Five-minute samples keep the week quick to generate; the shape does not depend on the interval.
  const week = collect({ hosts: 3, days: 7, intervalSeconds: 300, seed: 7, end: END });

  it('gives the same batches for the same seed and different ones for another seed', () => {
    // Compared as JSON: a deep equality of 3,000 batches takes seconds.
    const json = (seed: number) => JSON.stringify(collect({ hosts: 2, days: 1, seed, end: END }).batches);
    const a = json(42);
    expect(a.length).toBeGreaterThan(1_000_000);
    expect(json(42) === a).toBe(true);
    expect(json(43) === a).toBe(false);
  });

  it('sends valid demo batches with the metrics and labels the Linux agent publishes', async () => {
    // Checked by hand and reported together: an expect per sample would take minutes.
    const problems: string[] = [];
    for (const b of week.batches) {
      parseMetricBatch(b);
      if (b.source !== 'demo') problems.push(`${b.host}: source ${b.source}`);
      for (const s of b.samples) {
        const def = metricByName(s.m);
        if (!def) problems.push(`${s.m}: not in the catalogue`);
        for (const k in s.l) if (!def?.labels?.includes(k)) problems.push(`${s.m}: label ${k}`);
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    // What the real collectors read from this machine's /proc (two runs, so rates come too).
    const collectors = linuxCollectors();
    const real = new Map<string, string[]>();
    for (const delay of [0, 1100]) {
      await new Promise((r) => setTimeout(r, delay));
      const ctx = { procRoot: '/proc', now: Date.now(), logger: pino({ level: 'silent' }) };
      for (const c of collectors) {
        for (const s of await c.collect(ctx)) real.set(s.m, Object.keys(s.l ?? {}).sort());
      }
    }
    expect(real.size).toBeGreaterThan(30);
    const demo = new Map<string, string[]>();
    for (const b of week.batches) for (const s of b.samples) demo.set(s.m, Object.keys(s.l ?? {}).sort());
    for (const [m, labels] of real) expect(demo.get(m), m).toEqual(labels);
    for (const state of TCP_STATES) week.get(`web-01 tcp.connections{state=${state}}`);
    week.get('db-01 disk.used_pct{mount=/var/lib/postgresql}');
    week.get('db-01 net.tx_bytes_rate{interface=eth1}');
    week.get('db-01 disk_io.busy_pct{device=nvme1n1}');
    week.get('batch-01 cpu.user{core=3}');
  });

  it('keeps every value within physical bounds', () => {
    const problems: string[] = [];
    const check = (ok: boolean, what: () => string) => {
      if (!ok && problems.length < 10) problems.push(what());
    };
    const now = new Map<string, number>();
    for (const b of week.batches) {
      now.clear();
      for (const s of b.samples) {
        now.set(s.l ? `${s.m}${JSON.stringify(s.l)}` : s.m, s.v);
        check(s.v >= 0, () => `${b.host} ${s.m} = ${s.v}`);
        if (metricByName(s.m)?.unit === 'percent') check(s.v <= 100, () => `${b.host} ${s.m} = ${s.v}`);
      }
      const v = (m: string, l?: Record<string, string>) =>
        now.get(l ? `${m}${JSON.stringify(l)}` : m) ?? Number.NaN;
      const at = `${b.host} at ${new Date(b.ts).toISOString()}`;
      check(v('mem.used_bytes') <= v('mem.total_bytes'), () => `${at}: memory used > total`);
      check(v('swap.used_bytes') + v('swap.free_bytes') === v('swap.total_bytes'), () => `${at}: swap`);
      for (const mount of ['/', '/var/log', '/var/lib/postgresql', '/backup', '/data']) {
        const size = now.get(`disk.size_bytes${JSON.stringify({ mount })}`);
        if (size === undefined) continue;
        const l = { mount };
        check(v('disk.used_bytes', l) + v('disk.free_bytes', l) <= size, () => `${at}: ${mount} used > size`);
        check(v('disk.inodes_used', l) <= v('disk.inodes_total', l), () => `${at}: ${mount} inodes`);
      }
      const total = now.get('cpu.total');
      if (total !== undefined) {
        const sum = v('cpu.user') + v('cpu.system') + v('cpu.steal');
        check(Math.abs(total - sum) < 0.02, () => `${at}: cpu.total ${total} != ${sum}`);
        const all = total + v('cpu.iowait') + v('cpu.idle');
        check(Math.abs(all - 100) < 0.02, () => `${at}: cpu modes add up to ${all}`);
      }
    }
    expect(problems).toEqual([]);
    expect(week.batches.length).toBeGreaterThan(3 * 2000);
  });

  it('is busier in office hours than at night and quieter at the weekend, except the nightly batch jobs', () => {
    const offset = week.plan.utcOffsetMinutes;
    const cpu = (host: string, keep: (hour: number, weekday: number) => boolean) =>
      mean(
        week
          .get(`${host} cpu.total`)
          .filter(([ts]) => {
            const { hour, weekday } = localTime(ts, offset);
            return keep(hour, weekday);
          })
          .map(([, v]) => v),
      );
    const weekday = (d: number) => d >= 1 && d <= 5;
    for (const host of ['web-01', 'db-01']) {
      const office = cpu(host, (h, d) => weekday(d) && h >= 9 && h < 17);
      const night = cpu(host, (h, d) => weekday(d) && (h < 5 || h >= 22));
      const weekendDay = cpu(host, (h, d) => !weekday(d) && h >= 9 && h < 17);
      expect(office, host).toBeGreaterThan(night * 2);
      expect(office, host).toBeGreaterThan(weekendDay * 1.5);
    }
    const jobs = cpu('batch-01', (h) => h >= 1.5 && h < 4);
    const day = cpu('batch-01', (h) => h >= 9 && h < 17);
    expect(jobs).toBeGreaterThan(day * 2);
  });

  it('stages a CPU spike, a filling disk, a network burst and a reboot', () => {
    const at = (points: Points, from: number, to: number) =>
      points.filter(([ts]) => ts >= from && ts < to).map(([, v]) => v);
    const incident = <K extends string>(kind: K) => week.plan.incidents.find((i) => i.kind === kind)!;

    const spike = incident('cpu_spike');
    expect(Math.min(...at(week.get(`${spike.host} cpu.total`), spike.start, spike.end))).toBeGreaterThan(90);

    const fill = week.plan.incidents.find((i) => i.kind === 'disk_fill')!;
    if (fill.kind !== 'disk_fill') throw new Error('unreachable');
    const used = week.get(`${fill.host} disk.used_pct{mount=${fill.mount}}`);
    expect(Math.max(...at(used, fill.fullAt, fill.end))).toBeGreaterThan(96);
    expect(Math.max(...at(used, fill.end, fill.end + HOUR))).toBeLessThan(90);
    expect(Math.max(...at(used, fill.start - HOUR, fill.start))).toBeLessThan(90);

    const burst = week.plan.incidents.find((i) => i.kind === 'network_burst')!;
    if (burst.kind !== 'network_burst') throw new Error('unreachable');
    const rx = week.get(`${burst.host} net.rx_bytes_rate{interface=${burst.interface}}`);
    const usual = mean(at(rx, burst.start - 2 * HOUR, burst.start));
    expect(mean(at(rx, burst.start, burst.end))).toBeGreaterThan(usual * 4);

    // Uptime grows by the interval and drops once, at the reboot, after a gap with no samples.
    const reboot = incident('reboot');
    const uptime = week.get(`${reboot.host} system.uptime`);
    const drops = uptime.filter(([, v], i) => i > 0 && v < uptime[i - 1]![1]);
    expect(drops).toHaveLength(1);
    const [rebootTs, afterReboot] = drops[0]!;
    expect(rebootTs).toBeGreaterThanOrEqual(reboot.end);
    expect(afterReboot).toBeLessThan(week.plan.intervalSeconds + 60);
    expect(at(uptime, reboot.start, reboot.end)).toHaveLength(0);
    for (const host of ['web-01', 'batch-01']) {
      const up = week.get(`${host} system.uptime`);
      for (let i = 1; i < up.length; i++) expect(up[i]![1]).toBeGreaterThan(up[i - 1]![1]);
    }
  });

  it('grows disk use slowly and rotates logs at midnight', () => {
    const root = week.get('web-01 disk.used_bytes{mount=/}');
    expect(root.at(-1)![1]).toBeGreaterThan(root[0]![1]);
    expect(root.at(-1)![1] / root[0]![1]).toBeLessThan(1.1);
    const logs = week.get('web-01 disk.used_pct{mount=/var/log}');
    const before = logs.filter(([ts]) => localTime(ts, 0).hour >= 23.5).map(([, v]) => v);
    const after = logs.filter(([ts]) => localTime(ts, 0).hour < 0.5).map(([, v]) => v);
    expect(mean(after)).toBeLessThan(mean(before));
  });

  it('refuses options out of range, naming the option', () => {
    expect(() => planDemoData({ hosts: 0 })).toThrow(/hosts/);
    expect(() => planDemoData({ hosts: 2, intervalSeconds: 5 })).toThrow(/intervalSeconds/);
    expect(() => planDemoData({ hosts: 2, days: 0 })).toThrow(/days/);
    expect(() => planDemoData({ hosts: 2, tenant: 'a.b' })).toThrow(/tenant/);
  });
});

import { type Sample, TCP_STATES } from '@flightdeck/schemas';
import { type Incident, localTime } from './incidents';
import { activity, backupActivity, type DemoHost, type MountProfile } from './profiles';
import { type Random, Wander } from './random';

const DAY_S = 86_400;

const r2 = (v: number) => Math.round(v * 100) / 100;
const r3 = (v: number) => Math.round(v * 1000) / 1000;
const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);
/** 1 over [start, end), 0 elsewhere. */
const during = (t: number, i: { start: number; end: number } | undefined) =>
  i !== undefined && t >= i.start && t < i.end;

interface MountState {
  p: MountProfile;
  l: { mount: string };
  usable: number;
  inodes: number;
  used: number;
  /** Local day of the last rotation, and the use right after it. */
  day: number;
  baseline: number;
  noise: Wander;
}

/**
 * One demo host over time: `emit` appends the samples its agent would publish at an instant, with
 * the same metric names, labels, units and rounding as the Linux collectors. State (load averages,
 * page cache, disk use, uptime) carries from one call to the next, so calls go in time order.
 */
export class HostModel {
  private readonly rng: Random;
  private readonly cpuNoise: Wander;
  private readonly coreNoise: Wander[];
  private readonly coreBias: number[];
  private readonly memNoise: Wander;
  private readonly netNoise: Wander;
  private readonly activityNoise: Wander;
  private readonly mounts: MountState[];
  private readonly load = [0, 0, 0];
  private cached = 0;
  private swapUsed = 0;
  /** Unix ms the host booted. */
  private bootedAt: number;
  /** True for the agent's first run after a reboot: rate collectors have no baseline yet. */
  private firstRun = false;
  private rebooted = false;
  private readonly coreLabels: { core: string }[];
  private readonly deviceLabels: { device: string }[];
  private readonly ifaceLabels: { interface: string }[];
  private readonly spike: Incident | undefined;
  private readonly fill: Extract<Incident, { kind: 'disk_fill' }> | undefined;
  private readonly burst: Extract<Incident, { kind: 'network_burst' }> | undefined;
  private readonly reboot: Incident | undefined;

  constructor(
    readonly host: DemoHost,
    seed: Random,
    incidents: readonly Incident[],
    start: number,
    private readonly utcOffsetMinutes: number,
    /** Per-core series for this many cores (the all-cores series is always there). */
    coreSeries = 4,
  ) {
    const p = host.profile;
    this.rng = seed;
    this.cpuNoise = new Wander(seed.fork(1), 3, 900);
    const cores = Math.min(coreSeries, p.cores);
    this.coreNoise = Array.from({ length: cores }, (_, i) => new Wander(seed.fork(10 + i), 4, 300));
    // Work is never spread evenly: the first core takes interrupts and the odd single-threaded job.
    this.coreBias = Array.from({ length: cores }, (_, i) => (i === 0 ? 1.18 : 0.9 + 0.15 * seed.next()));
    this.memNoise = new Wander(seed.fork(2), 0.015, 1800);
    this.netNoise = new Wander(seed.fork(3), 0.12, 600);
    this.activityNoise = new Wander(seed.fork(4), 0.15, 600);
    this.coreLabels = Array.from({ length: cores }, (_, i) => ({ core: String(i) }));
    this.deviceLabels = p.devices.map((d) => ({ device: d.device }));
    this.ifaceLabels = p.interfaces.map((i) => ({ interface: i.interface }));
    const mine = <K extends Incident['kind']>(kind: K) =>
      incidents.find((i): i is Extract<Incident, { kind: K }> => i.host === host.key && i.kind === kind);
    this.spike = mine('cpu_spike');
    this.fill = mine('disk_fill');
    this.burst = mine('network_burst');
    this.reboot = mine('reboot');
    this.mounts = p.mounts.map((m, i) => {
      const usable = m.sizeBytes * (1 - m.reserved);
      const used = usable * m.usedAtStart;
      return {
        p: m,
        l: { mount: m.mount },
        usable,
        // ext4 makes one inode per 16 KiB.
        inodes: Math.floor(m.sizeBytes / 16_384),
        used,
        day: localTime(start, utcOffsetMinutes).day,
        baseline: used,
        noise: new Wander(seed.fork(20 + i), usable * 0.0004, 3600),
      };
    });
    // Up for 3 to 90 days already; the page cache is warm and the load averages settled.
    this.bootedAt = start - Math.floor(seed.between(3, 90) * DAY_S) * 1000;
    this.cached = (p.memBytes * (1 - p.memIdle) * p.cacheShare) / 2;
    this.swapUsed = p.swapBytes * p.swapUsed;
    const local = localTime(start, utcOffsetMinutes);
    const a = activity(p.role, local.hour, local.weekday);
    const busy = p.cpuIdle + (p.cpuPeak - p.cpuIdle) * a;
    this.load.fill((p.cores * busy) / 100);
  }

  /**
   * Appends the samples of instant `t` (unix ms) to `out`, `dt` seconds after the previous one.
   * Returns how many were added: 0 while the host is down.
   */
  emit(t: number, dt: number, out: Sample[]): number {
    const before = out.length;
    const reboot = this.reboot;
    if (reboot && t >= reboot.start) {
      if (t < reboot.end) return 0;
      if (!this.rebooted) {
        // Back up: the kernel booted 25 s before the agent's first run.
        this.rebooted = true;
        this.boot(reboot.end - 25_000);
      }
    }

    const p = this.host.profile;
    const rng = this.rng;
    const { hour, weekday, day } = localTime(t, this.utcOffsetMinutes);
    const a = clamp(activity(p.role, hour, weekday) * (1 + this.activityNoise.step(dt) * 0.3), 0, 1);
    const backup = backupActivity(p.role, hour);
    const spiking = during(t, this.spike);
    const bursting = during(t, this.burst);
    const fill = this.fill;
    const filling = fill !== undefined && t >= fill.start && t < fill.fullAt;

    // Disks first: iowait and blocked processes follow them.
    const disk = clamp(a + 0.5 * backup, 0, 1.4);
    let maxBusy = 0;
    const io: number[][] = [];
    for (const [i, d] of p.devices.entries()) {
      const jitter = () => Math.max(0.05, 1 + 0.25 * rng.gauss());
      const isDataDisk = i === p.devices.length - 1;
      let readOps = d.readOps * (0.03 + disk) * jitter();
      let writeOps = d.writeOps * (0.05 + a) * jitter();
      let readBytes = readOps * d.readKibPerOp * 1024 * jitter();
      let writeBytes = writeOps * d.writeKibPerOp * 1024 * jitter();
      if (isDataDisk && backup > 0) {
        readOps += d.readOps * 1.5 * backup;
        readBytes += 180e6 * backup * jitter();
        writeBytes += 60e6 * backup * jitter();
      }
      const filledHere = filling && p.mounts.find((m) => m.mount === fill.mount)?.device === d.device;
      if (filledHere) {
        const mount = this.mounts.find((m) => m.p.mount === fill.mount)!;
        const rate = (mount.usable * 0.97 - mount.baseline) / ((fill.fullAt - fill.start) / 1000);
        writeBytes += Math.max(0, rate) * jitter();
        writeOps += Math.max(0, rate) / (256 * 1024);
      }
      const busy = clamp(((readOps + writeOps) / d.maxOps) * 100 * jitter(), 0, 100);
      if (busy > maxBusy) maxBusy = busy;
      io.push([readOps, writeOps, readBytes, writeBytes, busy]);
    }

    // CPU, all cores, then a few cores: user + system + steal = total; total + iowait + idle = 100.
    let total = p.cpuIdle + (p.cpuPeak - p.cpuIdle) * a + this.cpuNoise.step(dt) + 1.2 * rng.gauss();
    if (spiking) total = 93 + 5 * rng.next();
    total = clamp(total, 0.3, 99.5);
    const iowait = clamp((p.iowaitPeak * maxBusy) / 100 + 0.2 * Math.abs(rng.gauss()), 0, 100 - total);
    if (!this.firstRun) {
      this.pushCpu(out, undefined, total, iowait);
      for (const [i, l] of this.coreLabels.entries()) {
        const core = clamp(
          total * this.coreBias[i]! + this.coreNoise[i]!.step(dt),
          0.1,
          spiking ? 100 : 99.8,
        );
        this.pushCpu(out, l, core, Math.min(iowait * this.coreBias[i]!, 100 - core));
      }
    }

    // Load averages move as the kernel's do: exponential averages of the runnable count over 1, 5 and 15 min.
    const runnable = Math.max(0, (p.cores * (total + iowait)) / 100 + 0.4 * rng.gauss());
    for (const [i, tau] of [60, 300, 900].entries()) {
      const keep = Math.exp(-dt / tau);
      this.load[i] = this.load[i]! * keep + runnable * (1 - keep);
    }
    out.push(
      { m: 'load.1m', v: r2(this.load[0]!) },
      { m: 'load.5m', v: r2(this.load[1]!) },
      { m: 'load.15m', v: r2(this.load[2]!) },
    );

    // Memory: the working set follows activity; the page cache fills what is left over hours.
    const memTotal = p.memBytes;
    const used =
      memTotal * clamp(p.memIdle + (p.memPeak - p.memIdle) * a + this.memNoise.step(dt), 0.05, 0.97);
    const cacheTarget = (memTotal - used) * p.cacheShare;
    this.cached += (cacheTarget - this.cached) * (1 - Math.exp(-dt / 7200));
    const cached = Math.min(this.cached, (memTotal - used) * 0.95);
    const buffers = memTotal * 0.012;
    const available = memTotal - used;
    this.swapUsed = clamp(this.swapUsed + (p.swapBytes * 0.002 * dt) / DAY_S, 0, p.swapBytes);
    const swapUsed = Math.round(this.swapUsed / 4096) * 4096;
    out.push(
      { m: 'mem.total_bytes', v: memTotal },
      { m: 'mem.available_bytes', v: kib(available) },
      { m: 'mem.cached_bytes', v: kib(cached) },
      { m: 'mem.buffers_bytes', v: kib(buffers) },
      { m: 'mem.used_bytes', v: memTotal - kib(available) },
      { m: 'mem.used_pct', v: r2(((memTotal - kib(available)) / memTotal) * 100) },
      { m: 'swap.total_bytes', v: p.swapBytes },
      { m: 'swap.used_bytes', v: swapUsed },
      { m: 'swap.free_bytes', v: p.swapBytes - swapUsed },
    );
    if (p.swapBytes > 0) out.push({ m: 'swap.used_pct', v: r2((swapUsed / p.swapBytes) * 100) });

    for (const m of this.mounts) this.pushMount(out, m, t, dt, day, a, backup);

    if (!this.firstRun) {
      for (const [i, l] of this.deviceLabels.entries()) {
        const [ro, wo, rb, wb, busy] = io[i]!;
        out.push(
          { m: 'disk_io.read_ops_rate', l, v: r3(ro!) },
          { m: 'disk_io.write_ops_rate', l, v: r3(wo!) },
          { m: 'disk_io.read_bytes_rate', l, v: r3(rb!) },
          { m: 'disk_io.write_bytes_rate', l, v: r3(wb!) },
          { m: 'disk_io.busy_pct', l, v: r2(busy!) },
        );
      }
      const wave = 1 + this.netNoise.step(dt);
      for (const [i, l] of this.ifaceLabels.entries()) {
        const n = p.interfaces[i]!;
        const side = i === 0 ? a : backup + 0.03;
        let scale = clamp((0.02 + side) * wave * (1 + 0.1 * rng.gauss()), 0.005, 3);
        if (bursting && i === 0) scale *= 6 + rng.next();
        const rx = n.rxBytes * scale;
        const tx = n.txBytes * scale;
        const rxp = rx / n.rxPacketBytes;
        const txp = tx / n.txPacketBytes;
        // Errors are rare (a flaky cable now and then); drops come with bursts that overrun the queues.
        const err = () => (rng.next() < 0.002 ? r3(rng.int(1, 3) / dt) : 0);
        const drop = (pps: number) => (bursting && i === 0 ? r3(pps * 0.004 * rng.next()) : err());
        out.push(
          { m: 'net.rx_bytes_rate', l, v: r3(rx) },
          { m: 'net.tx_bytes_rate', l, v: r3(tx) },
          { m: 'net.rx_packets_rate', l, v: r3(rxp) },
          { m: 'net.tx_packets_rate', l, v: r3(txp) },
          { m: 'net.rx_errors_rate', l, v: err() },
          { m: 'net.tx_errors_rate', l, v: 0 },
          { m: 'net.rx_drops_rate', l, v: drop(rxp) },
          { m: 'net.tx_drops_rate', l, v: drop(txp) * 0.25 },
        );
      }
    }

    this.pushTcp(out, bursting ? Math.min(1, a * 3) : a);

    const [idleProcs, busyProcs] = p.processes;
    out.push(
      { m: 'proc.count', v: Math.round(idleProcs + (busyProcs - idleProcs) * a + 3 * rng.gauss()) },
      { m: 'proc.running', v: Math.max(1, Math.round((p.cores * total) / 100 + 0.8 * rng.gauss())) },
      { m: 'proc.blocked', v: Math.max(0, Math.round((p.cores * iowait) / 100 + 0.3 * rng.gauss())) },
      { m: 'system.uptime', v: r2((t - this.bootedAt) / 1000) },
    );
    this.firstRun = false;
    return out.length - before;
  }

  /** A fresh boot: empty page cache and swap, load from zero, uptime from `at`. */
  private boot(at: number): void {
    this.bootedAt = at;
    this.firstRun = true;
    this.cached = this.host.profile.memBytes * 0.02;
    this.swapUsed = 0;
    this.load.fill(0);
  }

  private pushCpu(out: Sample[], l: { core: string } | undefined, total: number, iowait: number): void {
    const p = this.host.profile;
    const steal = Math.min(total * 0.04, 0.3 + 0.4 * Math.abs(this.rng.gauss()));
    const system = (total - steal) * p.systemShare;
    const user = r2(total - steal - system);
    const values = [user, r2(system), r2(iowait), r2(steal)] as const;
    const busy = r2(values[0] + values[1] + values[3]);
    const idle = r2(Math.max(0, 100 - busy - values[2]));
    const names = ['cpu.user', 'cpu.system', 'cpu.iowait', 'cpu.steal'] as const;
    for (let i = 0; i < 4; i++)
      out.push(l ? { m: names[i]!, l, v: values[i]! } : { m: names[i]!, v: values[i]! });
    out.push(l ? { m: 'cpu.idle', l, v: idle } : { m: 'cpu.idle', v: idle });
    out.push(l ? { m: 'cpu.total', l, v: busy } : { m: 'cpu.total', v: busy });
  }

  private pushMount(
    out: Sample[],
    m: MountState,
    t: number,
    dt: number,
    day: number,
    a: number,
    backup: number,
  ): void {
    const drive = m.p.growsWith === 'backup' ? backup * 20 : a;
    m.used += (m.p.growthPerDay * m.usable * drive * dt) / DAY_S;
    if (day !== m.day) {
      m.day = day;
      if (m.p.rotatesDaily) m.used = m.baseline + (m.used - m.baseline) * 0.15;
      m.baseline = m.used;
    }
    let used = m.used + m.noise.step(dt);
    const fill = this.fill;
    if (fill && fill.mount === m.p.mount && t >= fill.start && t < fill.end) {
      const share = Math.min(1, (t - fill.start) / (fill.fullAt - fill.start));
      used += Math.max(0, m.usable * 0.97 - used) * share;
    }
    const sizeBytes = m.p.sizeBytes;
    const usedBytes = Math.round(clamp(used, 0, m.usable) / 4096) * 4096;
    const free = Math.max(0, Math.floor(m.usable / 4096) * 4096 - usedBytes);
    const inodesUsed = Math.min(m.inodes, Math.round(usedBytes / m.p.bytesPerFile) + 22_000);
    const l = m.l;
    out.push(
      { m: 'disk.size_bytes', l, v: sizeBytes },
      { m: 'disk.used_bytes', l, v: usedBytes },
      { m: 'disk.free_bytes', l, v: free },
      { m: 'disk.used_pct', l, v: r2((usedBytes / (usedBytes + free)) * 100) },
      { m: 'disk.inodes_total', l, v: m.inodes },
      { m: 'disk.inodes_used', l, v: inodesUsed },
      { m: 'disk.inodes_free', l, v: m.inodes - inodesUsed },
      { m: 'disk.inodes_used_pct', l, v: r2((inodesUsed / m.inodes) * 100) },
    );
  }

  private pushTcp(out: Sample[], a: number): void {
    const { established, timeWait, listen } = this.host.profile.tcp;
    const rng = this.rng;
    const count = (mean: number) => Math.max(0, Math.round(mean + Math.sqrt(mean + 0.25) * rng.gauss()));
    const est = established[0] + (established[1] - established[0]) * a;
    const values: Record<(typeof TCP_STATES)[number], number> = {
      established: count(est),
      syn_sent: count(0.3 + 0.002 * est),
      syn_recv: count(0.2 + 0.004 * est),
      fin_wait1: count(0.1 + 0.002 * est),
      fin_wait2: count(0.2 + 0.01 * est),
      time_wait: count(timeWait * a),
      close: 0,
      close_wait: count(0.5 + 0.003 * est),
      last_ack: count(0.05 + 0.001 * est),
      listen,
      closing: 0,
    };
    for (const state of TCP_STATES)
      out.push({ m: 'tcp.connections', l: TCP_LABELS[state], v: values[state] });
  }
}

const TCP_LABELS = Object.fromEntries(TCP_STATES.map((s) => [s, { state: s }])) as Record<
  (typeof TCP_STATES)[number],
  { state: string }
>;

/** /proc/meminfo counts in KiB. */
function kib(bytes: number): number {
  return Math.round(bytes / 1024) * 1024;
}

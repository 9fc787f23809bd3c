import { describe, expect, it } from 'vitest';
import { sampleValue } from '../../testing/support';
import { fixtureDocument } from './fixtures/load';
import type { WindowsDocument } from './parse';
import {
  counterDelta,
  counterReadings,
  cpuSamples,
  DISK_COUNTERS,
  diskIoSamples,
  logicalDiskSamples,
  memorySamples,
  NETWORK_COUNTERS,
  networkSamples,
  perUserServices,
  type Readings,
  serviceSamples,
  systemSamples,
} from './samples';
import {
  LOGICAL_DISK,
  MEMORY,
  NETWORK_INTERFACE,
  OPERATING_SYSTEM,
  PHYSICAL_DISK,
  PROCESSOR,
  SERVICE,
  SYSTEM,
} from './script';

const T0 = 1_795_277_851_000;
const rows = (doc: WindowsDocument, cls: string) => doc.classes.get(cls) ?? [];
const one = (doc: WindowsDocument, cls: string) => doc.classes.get(cls)?.[0];
const run1 = fixtureDocument('server-2022-1.out');
const run2 = fixtureDocument('server-2022-2.out');

function readings(doc: WindowsDocument, cls: string, counters: readonly string[], at: number): Readings {
  return { at, instances: counterReadings(rows(doc, cls), counters) };
}
const DISK = [...DISK_COUNTERS.map(([c]) => c), 'PercentIdleTime', 'PercentIdleTime_Base'];
const NET = NETWORK_COUNTERS.map(([c]) => c);

describe('cpuSamples', () => {
  it('reports _Total as the host and every other instance as a core', () => {
    const samples = cpuSamples(rows(run1, PROCESSOR));
    expect(sampleValue(samples, 'cpu.user')).toBe(21);
    expect(sampleValue(samples, 'cpu.system')).toBe(7);
    expect(sampleValue(samples, 'cpu.idle')).toBe(71);
    expect(sampleValue(samples, 'cpu.total')).toBe(29);
    expect(sampleValue(samples, 'cpu.interrupt')).toBe(0);
    expect(sampleValue(samples, 'cpu.user', { core: '0' })).toBe(13);
    expect(sampleValue(samples, 'cpu.total', { core: '0' })).toBe(19);
    expect(sampleValue(samples, 'cpu.interrupt', { core: '0' })).toBe(1);
    expect(samples).toHaveLength(15);
  });

  it("leaves out a fresh shell's all-zero reading, which measures nothing", () => {
    expect(cpuSamples(rows(fixtureDocument('fresh-shell.out'), PROCESSOR))).toEqual([]);
  });

  it('reads a processor list PowerShell wrapped as {value, Count}', () => {
    expect(sampleValue(cpuSamples(rows(fixtureDocument('other-shapes.out'), PROCESSOR)), 'cpu.total')).toBe(
      29,
    );
  });
});

describe('memorySamples', () => {
  it('reports memory, the page file as swap, and the commit charge', () => {
    const samples = memorySamples(one(run1, OPERATING_SYSTEM), one(run1, MEMORY));
    expect(sampleValue(samples, 'mem.total_bytes')).toBe(8_388_148 * 1024);
    expect(sampleValue(samples, 'mem.available_bytes')).toBe(3_145_728 * 1024);
    expect(sampleValue(samples, 'mem.used_bytes')).toBe((8_388_148 - 3_145_728) * 1024);
    expect(sampleValue(samples, 'mem.used_pct')).toBe(62.5);
    expect(sampleValue(samples, 'swap.total_bytes')).toBe(1_310_720 * 1024);
    expect(sampleValue(samples, 'swap.used_bytes')).toBe(131_072 * 1024);
    expect(sampleValue(samples, 'swap.free_bytes')).toBe(1_179_648 * 1024);
    expect(sampleValue(samples, 'swap.used_pct')).toBe(10);
    expect(sampleValue(samples, 'win.committed_bytes')).toBe(5_452_595_200);
    expect(sampleValue(samples, 'win.commit_limit_bytes')).toBe(9_931_640_832);
    expect(sampleValue(samples, 'win.page_faults_rate')).toBe(1843);
  });

  it('takes the commit charge from the virtual memory totals when the performance class is missing', () => {
    const doc = fixtureDocument('perf-counters-missing.out');
    const samples = memorySamples(one(doc, OPERATING_SYSTEM), one(doc, MEMORY));
    expect(sampleValue(samples, 'win.committed_bytes')).toBe((9_698_868 - 4_194_304) * 1024);
    expect(sampleValue(samples, 'win.commit_limit_bytes')).toBe(9_698_868 * 1024);
    expect(sampleValue(samples, 'win.page_faults_rate')).toBeUndefined();
    expect(sampleValue(samples, 'mem.used_pct')).toBe(62.5);
  });

  it('reports no swap percentage for a host without a page file', () => {
    const doc = fixtureDocument('one-cpu-vm.out');
    const samples = memorySamples(one(doc, OPERATING_SYSTEM), one(doc, MEMORY));
    expect(sampleValue(samples, 'swap.total_bytes')).toBe(0);
    expect(sampleValue(samples, 'swap.used_pct')).toBeUndefined();
  });
});

describe('logicalDiskSamples', () => {
  it('reports each fixed drive with its letter as the mount', () => {
    const samples = logicalDiskSamples(rows(run1, LOGICAL_DISK));
    const c = { mount: 'C:' };
    expect(sampleValue(samples, 'disk.size_bytes', c)).toBe(136_912_564_224);
    expect(sampleValue(samples, 'disk.free_bytes', c)).toBe(81_604_378_624);
    expect(sampleValue(samples, 'disk.used_bytes', c)).toBe(55_308_185_600);
    expect(sampleValue(samples, 'disk.used_pct', c)).toBe(40.4);
    expect(sampleValue(samples, 'disk.used_pct', { mount: 'D:' })).toBe(20);
    expect(samples).toHaveLength(8);
  });

  it('reads a single drive written as an object, and sizes written as strings', () => {
    expect(
      sampleValue(
        logicalDiskSamples(rows(fixtureDocument('one-cpu-vm.out'), LOGICAL_DISK)),
        'disk.used_pct',
        { mount: 'C:' },
      ),
    ).toBe(30);
    const strings = logicalDiskSamples(rows(fixtureDocument('other-shapes.out'), LOGICAL_DISK));
    expect(sampleValue(strings, 'disk.size_bytes', { mount: 'C:' })).toBe(136_912_564_224);
  });

  it('skips a drive without a size (not formatted, or locked)', () => {
    expect(logicalDiskSamples([{ DeviceID: 'E:', Size: null, FreeSpace: null }])).toEqual([]);
  });
});

describe('systemSamples', () => {
  it('reports processes, the processor queue and uptime', () => {
    const samples = systemSamples(one(run1, SYSTEM), one(run1, OPERATING_SYSTEM), T0);
    expect(sampleValue(samples, 'proc.count')).toBe(113);
    expect(sampleValue(samples, 'win.processor_queue_length')).toBe(1);
    expect(sampleValue(samples, 'system.uptime')).toBe(87_451);
  });

  it('computes uptime from LastBootUpTime when the performance class is missing', () => {
    const doc = fixtureDocument('perf-counters-missing.out');
    const samples = systemSamples(
      one(doc, SYSTEM),
      one(doc, OPERATING_SYSTEM),
      1_795_190_400_500 + 3_600_000,
    );
    expect(samples).toEqual([{ m: 'system.uptime', v: 3600 }]);
  });
});

describe('diskIoSamples', () => {
  it('turns raw counters of two runs into rates and busy time per physical disk, without _Total', () => {
    const samples = diskIoSamples(
      readings(run1, PHYSICAL_DISK, DISK, T0),
      readings(run2, PHYSICAL_DISK, DISK, T0 + 10_000),
    );
    const c = { device: '0 C:' };
    expect(sampleValue(samples, 'disk_io.read_ops_rate', c)).toBe(150);
    expect(sampleValue(samples, 'disk_io.write_ops_rate', c)).toBe(320);
    expect(sampleValue(samples, 'disk_io.read_bytes_rate', c)).toBe(6_144_000);
    expect(sampleValue(samples, 'disk_io.write_bytes_rate', c)).toBe(4_096_000);
    expect(sampleValue(samples, 'disk_io.busy_pct', c)).toBe(25);
    expect(sampleValue(samples, 'disk_io.busy_pct', { device: '1 D:' })).toBe(1);
    expect(sampleValue(samples, 'disk_io.write_bytes_rate', { device: '1 D:' })).toBe(40_960);
    expect(samples.some((s) => s.l?.device === '_Total')).toBe(false);
  });

  it("measures the interval with the counters' own clock, not the agent's", () => {
    // The agent's clock says 12.5 s, Timestamp_Sys100NS says 10 s: the rate follows the counters.
    const samples = diskIoSamples(
      readings(run1, PHYSICAL_DISK, DISK, T0),
      readings(run2, PHYSICAL_DISK, DISK, T0 + 12_500),
    );
    expect(sampleValue(samples, 'disk_io.read_ops_rate', { device: '0 C:' })).toBe(150);
  });
});

describe('networkSamples', () => {
  it('turns raw counters of two runs into rates per interface', () => {
    const samples = networkSamples(
      readings(run1, NETWORK_INTERFACE, NET, T0),
      readings(run2, NETWORK_INTERFACE, NET, T0 + 10_000),
    );
    const nic = { interface: 'Microsoft Hyper-V Network Adapter' };
    expect(sampleValue(samples, 'net.rx_bytes_rate', nic)).toBe(1_250_000);
    expect(sampleValue(samples, 'net.tx_bytes_rate', nic)).toBe(250_000);
    expect(sampleValue(samples, 'net.rx_packets_rate', nic)).toBe(1000);
    expect(sampleValue(samples, 'net.tx_packets_rate', nic)).toBe(500);
    expect(sampleValue(samples, 'net.rx_errors_rate', nic)).toBe(0.5);
    expect(sampleValue(samples, 'net.tx_errors_rate', nic)).toBe(0);
    expect(sampleValue(samples, 'net.rx_drops_rate', nic)).toBe(2);
    expect(sampleValue(samples, 'net.tx_drops_rate', nic)).toBe(0.1);
    expect(
      sampleValue(samples, 'net.rx_bytes_rate', {
        interface: 'Intel[R] 82574L Gigabit Network Connection _2',
      }),
    ).toBe(400);
    expect(samples).toHaveLength(16);
  });

  it('reads a single interface written as an object and follows a 32-bit counter that wrapped', () => {
    const a = fixtureDocument('one-cpu-vm.out');
    const b = fixtureDocument('one-cpu-vm-2.out');
    const samples = networkSamples(
      readings(a, NETWORK_INTERFACE, NET, T0),
      readings(b, NETWORK_INTERFACE, NET, T0 + 10_000),
    );
    const nic = { interface: 'AWS PV Network Device _0' };
    expect(sampleValue(samples, 'net.rx_bytes_rate', nic)).toBe((2_000_000 + 2 ** 32 - 4_294_000_000) / 10);
    expect(sampleValue(samples, 'net.tx_bytes_rate', nic)).toBe(10_000);
    const disks = diskIoSamples(
      readings(a, PHYSICAL_DISK, DISK, T0),
      readings(b, PHYSICAL_DISK, DISK, T0 + 10_000),
    );
    expect(sampleValue(disks, 'disk_io.busy_pct', { device: '0 C:' })).toBe(50);
  });

  it('reports nothing for an interface whose counters were reset', () => {
    const samples = networkSamples(
      readings(run2, NETWORK_INTERFACE, NET, T0),
      readings(run1, NETWORK_INTERFACE, NET, T0 + 10_000),
    );
    expect(samples.filter((s) => s.l?.interface === 'Microsoft Hyper-V Network Adapter')).toEqual([]);
  });
});

describe('counterDelta', () => {
  it('follows growth and a 32-bit wrap, and refuses a reset', () => {
    expect(counterDelta(10, 25)).toBe(15);
    expect(counterDelta(2 ** 32 - 10, 5)).toBe(15);
    expect(counterDelta(1_000_000_000, 5)).toBeUndefined(); // a "wrap" of more than half the range
    expect(counterDelta(2 ** 40, 5)).toBeUndefined(); // 64-bit counters do not wrap
  });
});

describe('serviceSamples', () => {
  it('counts services by state and reports each automatic service', () => {
    const samples = serviceSamples(rows(run1, SERVICE));
    expect(sampleValue(samples, 'win.services', { state: 'running' })).toBe(8);
    expect(sampleValue(samples, 'win.services', { state: 'stopped' })).toBe(7);
    expect(sampleValue(samples, 'win.services', { state: 'start_pending' })).toBe(1);
    expect(sampleValue(samples, 'win.service_running', { service: 'MSSQLSERVER' })).toBe(1);
    expect(sampleValue(samples, 'win.service_running', { service: 'W3SVC' })).toBe(0);
    expect(sampleValue(samples, 'win.service_running', { service: 'MapsBroker' })).toBe(0);
    // Manual and disabled services are counted but not reported one by one.
    expect(sampleValue(samples, 'win.service_running', { service: 'BITS' })).toBeUndefined();
    expect(sampleValue(samples, 'win.auto_services_stopped')).toBe(3);
    expect(samples.filter((s) => s.m === 'win.service_running')).toHaveLength(10);
  });

  it('follows a service that stopped and one that finished starting', () => {
    const samples = serviceSamples(rows(run2, SERVICE));
    expect(sampleValue(samples, 'win.service_running', { service: 'MSSQLSERVER' })).toBe(0);
    expect(sampleValue(samples, 'win.service_running', { service: 'W3SVC' })).toBe(1);
    expect(sampleValue(samples, 'win.services', { state: 'start_pending' })).toBeUndefined();
    expect(sampleValue(samples, 'win.services', { state: 'running' })).toBe(8);
    expect(sampleValue(samples, 'win.auto_services_stopped')).toBe(3);
  });

  it('leaves per-user service templates and their session instances out of the per-service samples', () => {
    expect(perUserServices(['CDPUserSvc', 'CDPUserSvc_4f2e1', 'Dhcp', 'MSSQL_2019'])).toEqual(
      new Set(['CDPUserSvc', 'CDPUserSvc_4f2e1']),
    );
    const samples = serviceSamples(rows(run1, SERVICE));
    expect(samples.some((s) => s.l?.service?.startsWith('CDPUserSvc'))).toBe(false);
  });
});

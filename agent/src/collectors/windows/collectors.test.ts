import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricByName } from '@flightdeck/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollectorRunner } from '../../scheduler';
import { recordingLogger, sampleValue } from '../../testing/support';
import { type WindowsHost, windowsHost } from './collectors';
import { WINDOWS_FIXTURES } from './fixtures/load';
import type { NodeHostFacts } from './inventory';

// The Windows collectors end to end on any OS: the shell is fixtures/fake-powershell.mjs answering
// each run with a recorded-shape document, so what runs is the real sampler, parser and collectors.
const FAKE = join(WINDOWS_FIXTURES, 'fake-powershell.mjs');
const T0 = 1_795_277_851_000;
const FACTS: NodeHostFacts = {
  hostname: 'node-name',
  osName: 'Windows Server 2022 Standard',
  osRelease: '10.0.20348',
  arch: 'x64',
  cores: 2,
  memoryBytes: 8_589_463_552,
  ips: [],
};

const hosts: WindowsHost[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  delete process.env.FAKE_POWERSHELL_LOG;
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

function host(args: string[], timeouts = { timeoutMs: 2000, startTimeoutMs: 5000 }) {
  const h = windowsHost({
    sampler: { command: process.execPath, args: [FAKE, ...args], ...timeouts },
    hostFacts: () => FACTS,
  });
  hosts.push(h);
  return h;
}

const fixture = (name: string) => join(WINDOWS_FIXTURES, name);

describe('windowsHost', () => {
  it('samples CPU, memory, drives, disks, network, system and services from one script per run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fd-win-'));
    dirs.push(dir);
    process.env.FAKE_POWERSHELL_LOG = join(dir, 'stdin.log');
    const h = host(['answer', fixture('server-2022-1.out'), fixture('server-2022-2.out')]);
    expect(h.collectors.map((c) => c.name)).toEqual([
      'cpu',
      'memory',
      'filesystem',
      'disk_io',
      'network',
      'system',
      'services',
    ]);
    const { logger, warnings } = recordingLogger();
    const run = createCollectorRunner(h.collectors, 10_000);

    const first = await run({ procRoot: '/proc', now: T0, logger });
    expect(first.failed).toEqual([]);
    expect(sampleValue(first.samples, 'cpu.total')).toBe(29);
    expect(sampleValue(first.samples, 'mem.used_pct')).toBe(62.5);
    expect(sampleValue(first.samples, 'disk.used_pct', { mount: 'C:' })).toBe(40.4);
    expect(sampleValue(first.samples, 'proc.count')).toBe(113);
    expect(sampleValue(first.samples, 'win.auto_services_stopped')).toBe(3);
    // Rates need a second run.
    expect(first.samples.filter((s) => s.m.startsWith('disk_io.') || s.m.startsWith('net.'))).toEqual([]);

    const second = await run({ procRoot: '/proc', now: T0 + 10_000, logger });
    expect(sampleValue(second.samples, 'disk_io.read_ops_rate', { device: '0 C:' })).toBe(150);
    expect(sampleValue(second.samples, 'disk_io.busy_pct', { device: '0 C:' })).toBe(25);
    expect(
      sampleValue(second.samples, 'net.rx_bytes_rate', { interface: 'Microsoft Hyper-V Network Adapter' }),
    ).toBe(1_250_000);
    expect(sampleValue(second.samples, 'win.service_running', { service: 'MSSQLSERVER' })).toBe(0);

    for (const s of [...first.samples, ...second.samples]) {
      const def = metricByName(s.m);
      expect(def, s.m).toBeDefined();
      for (const key of Object.keys(s.l ?? {})) expect(def?.labels ?? [], `${s.m}{${key}}`).toContain(key);
    }
    expect(warnings()).toEqual([]);

    // Seven collectors, one prelude and one script per run; the inventory classes only the first time.
    const lines = (await readFile(join(dir, 'stdin.log'), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('Win32_ComputerSystem');
    expect(lines[2]).not.toContain('Win32_ComputerSystem');
  });

  it('gives the inventory Node knows until PowerShell answers, then the one it read', async () => {
    const h = host(['answer', fixture('server-2022-1.out'), fixture('server-2022-2.out')]);
    expect(h.inventory()).toMatchObject({ hostname: 'node-name', platform: 'windows' });
    const { logger } = recordingLogger();
    const run = createCollectorRunner(h.collectors, 10_000);
    await run({ procRoot: '/proc', now: T0, logger });
    expect(h.inventory()).toMatchObject({
      hostname: 'WIN-APP01',
      cores: 2,
      ips: ['10.20.0.15', '192.168.56.10', 'fd00:56::10'],
    });
    // A run without the inventory classes keeps the inventory read before.
    await run({ procRoot: '/proc', now: T0 + 10_000, logger });
    expect(h.inventory().hostname).toBe('WIN-APP01');
  });

  it('warns once per class that cannot be read and keeps reporting what it can', async () => {
    const h = host(['answer', fixture('perf-counters-missing.out')]);
    const { logger, warnings } = recordingLogger();
    const run = createCollectorRunner(h.collectors, 10_000);
    const first = await run({ procRoot: '/proc', now: T0, logger });
    expect(
      warnings()
        .map((w) => w.class)
        .sort(),
    ).toEqual([
      'Win32_PerfFormattedData_PerfOS_Memory',
      'Win32_PerfFormattedData_PerfOS_Processor',
      'Win32_PerfFormattedData_PerfOS_System',
      'Win32_PerfRawData_PerfDisk_PhysicalDisk',
      'Win32_PerfRawData_Tcpip_NetworkInterface',
    ]);
    expect(String(warnings()[0]?.msg)).toMatch(/cannot read Win32_\w+: Invalid class/);
    expect(first.samples.some((s) => s.m.startsWith('cpu.'))).toBe(false);
    expect(sampleValue(first.samples, 'mem.used_pct')).toBe(62.5);
    expect(sampleValue(first.samples, 'disk.used_pct', { mount: 'C:' })).toBe(40.4);
    expect(sampleValue(first.samples, 'win.services', { state: 'running' })).toBe(8);
    await run({ procRoot: '/proc', now: T0 + 10_000, logger });
    expect(warnings()).toHaveLength(5);
  });

  it('warns naming the shell and returns nothing from any collector when PowerShell does not answer', async () => {
    const h = host(['hang'], { timeoutMs: 300, startTimeoutMs: 1000 });
    const { logger, warnings } = recordingLogger();
    const run = createCollectorRunner(h.collectors, 10_000);
    const result = await run({ procRoot: '/proc', now: T0, logger });
    expect(result.samples).toEqual([]);
    expect(result.failed).toEqual([]);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ shell: process.execPath });
    expect(String(warnings()[0]?.err)).toMatch(/no answer within 1000 ms/);
  });

  it('finds the document and the end marker behind a prompt the shell printed on their lines', async () => {
    const h = host(['prompt', fixture('server-2022-1.out')]);
    const { logger, warnings } = recordingLogger();
    const result = await createCollectorRunner(h.collectors, 10_000)({ procRoot: '/proc', now: T0, logger });
    expect(sampleValue(result.samples, 'cpu.total')).toBe(29);
    expect(warnings()).toEqual([]);
  });

  it('warns when the answer is not a document', async () => {
    const h = host(['big', '100']);
    const { logger, warnings } = recordingLogger();
    const result = await createCollectorRunner(h.collectors, 10_000)({ procRoot: '/proc', now: T0, logger });
    expect(result.samples).toEqual([]);
    expect(String(warnings()[0]?.err)).toMatch(/no JSON document/);
  });
});

import type { HostInventory } from '@flightdeck/schemas/wire';
import type { CollectContext, Collector, SampleLike } from '../contract';
import { type NodeHostFacts, nodeHostFacts, windowsInventory } from './inventory';
import { type CimRow, parseWindowsDocument, type WindowsDocument } from './parse';
import {
  createPowerShellSampler,
  POWERSHELL_COMMAND,
  type PowerShellSampler,
  type PowerShellSamplerOptions,
} from './powershell-sampler';
import {
  counterReadings,
  cpuSamples,
  DISK_COUNTERS,
  diskIoSamples,
  logicalDiskSamples,
  memorySamples,
  NETWORK_COUNTERS,
  networkSamples,
  type Readings,
  serviceSamples,
  systemSamples,
} from './samples';
import {
  COMPUTER_SYSTEM,
  LOGICAL_DISK,
  MEMORY,
  NETWORK_INTERFACE,
  OPERATING_SYSTEM,
  PHYSICAL_DISK,
  PROCESSOR,
  SERVICE,
  SYSTEM,
  WINDOWS_PRELUDE,
  windowsScript,
} from './script';

export interface WindowsHostOptions {
  /** How the shell is started and how long it may take; the prelude is the agent's own. */
  sampler?: Omit<PowerShellSamplerOptions, 'prelude'>;
  /** How often the inventory classes are read again (default 10 minutes). */
  inventoryRefreshMs?: number;
  /** Default {@link nodeHostFacts}; replaced in tests. */
  hostFacts?: () => NodeHostFacts;
}

/** The Windows collectors, the inventory they read along the way, and the shell they share. */
export interface WindowsHost {
  collectors: Collector[];
  /** The inventory for the agent's heartbeat; what Node knows until PowerShell has answered once. */
  inventory: () => HostInventory;
  /** Ends the PowerShell child. */
  close(): Promise<void>;
}

/**
 * The collectors of a Windows host. They share one long-lived PowerShell (see
 * {@link createPowerShellSampler}) and one query per run: the first collector of a run starts it and
 * the others wait for the same document, so a run costs one round of CIM queries whatever the
 * number of collectors. A run whose shell failed is logged as a warning and every collector returns
 * nothing for it; a class that could not be read is warned about once (until it reads again) and
 * only the collectors that need it come back empty.
 */
export function windowsHost(options: WindowsHostOptions = {}): WindowsHost {
  const sampler = createPowerShellSampler({ ...options.sampler, prelude: WINDOWS_PRELUDE });
  const source = documentSource(sampler, {
    command: options.sampler?.command ?? POWERSHELL_COMMAND,
    inventoryRefreshMs: options.inventoryRefreshMs ?? 10 * 60_000,
  });
  const facts = options.hostFacts ?? nodeHostFacts;

  const simple = (
    name: string,
    build: (doc: WindowsDocument, ctx: CollectContext) => SampleLike[],
  ): Collector => ({
    name,
    async collect(ctx) {
      const doc = await source.read(ctx);
      return doc ? build(doc, ctx) : [];
    },
  });

  const collectors: Collector[] = [
    simple('cpu', (doc) => cpuSamples(doc.classes.get(PROCESSOR) ?? [])),
    simple('memory', (doc) => memorySamples(first(doc, OPERATING_SYSTEM), first(doc, MEMORY))),
    simple('filesystem', (doc) => logicalDiskSamples(doc.classes.get(LOGICAL_DISK) ?? [])),
    rateCollector(
      'disk_io',
      source,
      PHYSICAL_DISK,
      [...DISK_COUNTERS.map(([c]) => c), 'PercentIdleTime', 'PercentIdleTime_Base'],
      diskIoSamples,
    ),
    rateCollector(
      'network',
      source,
      NETWORK_INTERFACE,
      NETWORK_COUNTERS.map(([c]) => c),
      networkSamples,
    ),
    simple('system', (doc, ctx) => systemSamples(first(doc, SYSTEM), first(doc, OPERATING_SYSTEM), ctx.now)),
    simple('services', (doc) => serviceSamples(doc.classes.get(SERVICE) ?? [])),
  ];

  return {
    collectors,
    inventory: () => windowsInventory(source.inventoryDocument(), facts()),
    close: () => sampler.close(),
  };
}

function first(doc: WindowsDocument, cls: string): CimRow | undefined {
  return doc.classes.get(cls)?.[0];
}

/** A collector of rates from a raw performance class: the first run, and a new instance, only record. */
function rateCollector(
  name: string,
  source: DocumentSource,
  cls: string,
  counters: readonly string[],
  build: (prev: Readings, cur: Readings) => SampleLike[],
): Collector {
  let previous: Readings | undefined;
  return {
    name,
    async collect(ctx) {
      const rows = (await source.read(ctx))?.classes.get(cls);
      if (!rows) return [];
      const cur = { at: ctx.now, instances: counterReadings(rows, counters) };
      const prev = previous;
      previous = cur;
      return prev ? build(prev, cur) : [];
    },
  };
}

interface DocumentSource {
  /** The document of the run `ctx.now` belongs to; undefined when the shell gave none. */
  read(ctx: CollectContext): Promise<WindowsDocument | undefined>;
  /** The last document that held the inventory classes. */
  inventoryDocument(): WindowsDocument | undefined;
}

/** Runs the script once per run (keyed by `ctx.now`) and shares its document. */
function documentSource(
  sampler: PowerShellSampler,
  options: { command: string; inventoryRefreshMs: number },
): DocumentSource {
  let current: { now: number; doc: Promise<WindowsDocument | undefined> } | undefined;
  let inventoryDoc: WindowsDocument | undefined;
  let inventoryAt: number | undefined;
  /** Classes warned about, with the message, so a class that stays unreadable is not warned every run. */
  const warned = new Map<string, string>();

  async function readNow(ctx: CollectContext): Promise<WindowsDocument | undefined> {
    const withInventory = inventoryAt === undefined || ctx.now - inventoryAt >= options.inventoryRefreshMs;
    const result = await sampler.run(windowsScript({ inventory: withInventory }));
    const shell = { shell: options.command, pid: sampler.pid };
    if (!result.ok) {
      ctx.logger.warn({ ...shell, err: result.error }, `PowerShell gave no sample: ${result.error}`);
      return undefined;
    }
    const parsed = parseWindowsDocument(result.lines);
    if (!parsed.doc) {
      ctx.logger.warn(
        { ...shell, err: parsed.problem },
        `PowerShell's answer not understood: ${parsed.problem}`,
      );
      return undefined;
    }
    const { doc } = parsed;
    for (const [cls, message] of doc.errors) {
      if (warned.get(cls) === message) continue;
      warned.set(cls, message);
      ctx.logger.warn({ class: cls, err: message }, `cannot read ${cls}: ${message}`);
    }
    for (const cls of warned.keys()) if (!doc.errors.has(cls)) warned.delete(cls);
    if (withInventory && doc.classes.has(OPERATING_SYSTEM) && doc.classes.has(COMPUTER_SYSTEM)) {
      inventoryDoc = doc;
      inventoryAt = ctx.now;
    }
    return doc;
  }

  return {
    read(ctx) {
      if (current?.now !== ctx.now) current = { now: ctx.now, doc: readNow(ctx) };
      return current.doc;
    },
    inventoryDocument: () => inventoryDoc,
  };
}

import { statfs as fsStatfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Collector, SampleLike } from '../contract';
import { errorMessage, fields, percent, readProcText, warnUnparsed } from './proc';

/** One line of /proc/self/mounts. */
export interface MountEntry {
  device: string;
  mountPoint: string;
  fsType: string;
}

/**
 * File system types that hold no user data (kernel views, memory-backed, read-only images). Overlay
 * is kept: it is the root file system of a container.
 */
export const PSEUDO_FS_TYPES: ReadonlySet<string> = new Set([
  'autofs',
  'binfmt_misc',
  'bpf',
  'cgroup',
  'cgroup2',
  'configfs',
  'debugfs',
  'devpts',
  'devtmpfs',
  'efivarfs',
  'fusectl',
  'hugetlbfs',
  'mqueue',
  'nsfs',
  'proc',
  'pstore',
  'ramfs',
  'rpc_pipefs',
  'securityfs',
  'selinuxfs',
  'squashfs',
  'sysfs',
  'tmpfs',
  'tracefs',
]);

/** FUSE file systems that only re-export kernel data (`fuse.lxcfs`) or desktop sessions. */
const PSEUDO_FUSE = new Set(['fuse.lxcfs', 'fuse.gvfsd-fuse', 'fuse.portal', 'fuse.snapfuse']);

export function isPseudoFs(fsType: string): boolean {
  return PSEUDO_FS_TYPES.has(fsType) || PSEUDO_FUSE.has(fsType);
}

/** The kernel writes blanks, tabs, newlines and backslashes in mount paths as octal escapes (`\040`). */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

export function parseMounts(text: string): { mounts: MountEntry[]; unparsed: string[] } {
  const mounts: MountEntry[] = [];
  const unparsed: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const [device, mountPoint, fsType] = fields(line);
    if (!device || !mountPoint?.startsWith('/') || !fsType) {
      unparsed.push(line);
      continue;
    }
    mounts.push({ device, mountPoint: unescapeMountPath(mountPoint), fsType });
  }
  return { mounts, unparsed };
}

/**
 * The mounts worth reporting: real file systems, each mount point once (the last mount on a path is
 * the one visible there).
 */
export function reportableMounts(mounts: readonly MountEntry[]): MountEntry[] {
  const byPoint = new Map<string, MountEntry>();
  for (const m of mounts) {
    byPoint.delete(m.mountPoint);
    if (!isPseudoFs(m.fsType)) byPoint.set(m.mountPoint, m);
  }
  return [...byPoint.values()];
}

/** The subset of `fs.statfs` results the collector uses; numbers are blocks and inodes. */
export interface StatFsLike {
  bsize: number;
  blocks: number;
  bfree: number;
  bavail: number;
  files: number;
  ffree: number;
}

export interface FilesystemCollectorOptions {
  /** Replaced in tests; defaults to `fs.promises.statfs`. */
  statfs?: (path: string) => Promise<StatFsLike>;
  /** How long one mount may take to answer before it is left out of this run (default 2 s). */
  mountTimeoutMs?: number;
  /**
   * The host's root file system as this process sees it. Default `/`: the mounts of this process
   * (`<procRoot>/self/mounts`). Another root (`/rootfs` in the agent container, the host's `/`
   * mounted there) reads the mounts of the host's init (`<procRoot>/1/mounts`, which needs the
   * host's pid namespace) and asks statfs under that root; samples keep the host's mount paths.
   */
  hostRoot?: string;
}

/** Label values are at most 256 characters on the wire (schemas `Labels`). */
const MAX_LABEL = 256;

/**
 * Size, use and inode use per mounted file system (label `mount`), from /proc/self/mounts and
 * statfs(2). `disk.used_pct` is computed as df does: used / (used + available to users), so blocks
 * reserved for root count as neither. A mount that does not answer (a dead NFS server) is left out
 * and not asked again until its pending statfs returns, so stuck calls never pile up in libuv's
 * thread pool.
 */
export function filesystemCollector(options: FilesystemCollectorOptions = {}): Collector {
  const statfs = options.statfs ?? ((path: string) => fsStatfs(path));
  const mountTimeoutMs = options.mountTimeoutMs ?? 2000;
  const hostRoot = options.hostRoot && options.hostRoot !== '/' ? options.hostRoot : undefined;
  const mountsFile = hostRoot ? '1/mounts' : 'self/mounts';
  const stuck = new Set<string>();

  return {
    name: 'filesystem',
    async collect(ctx) {
      const text = await readProcText(ctx, mountsFile);
      if (text === undefined) return [];
      const { mounts, unparsed } = parseMounts(text);
      warnUnparsed(ctx, mountsFile, unparsed);

      const results = await Promise.all(
        reportableMounts(mounts).map(async ({ mountPoint }): Promise<SampleLike[]> => {
          if (mountPoint.length > MAX_LABEL) {
            ctx.logger.warn({ mount: mountPoint.slice(0, 80) }, 'mount path too long for a label; skipped');
            return [];
          }
          if (stuck.has(mountPoint)) {
            ctx.logger.warn({ mount: mountPoint }, `statfs of ${mountPoint} still pending; skipped`);
            return [];
          }
          let st: StatFsLike;
          try {
            st = await statfsWithDeadline(mountPoint);
          } catch (err) {
            ctx.logger.warn({ mount: mountPoint, err: errorMessage(err) }, `cannot statfs ${mountPoint}`);
            return [];
          }
          return fsSamples(mountPoint, st);
        }),
      );
      return results.flat();
    },
  };

  /** statfs, or a rejection after `mountTimeoutMs`; a late mount stays `stuck` until its call returns. */
  function statfsWithDeadline(mountPoint: string): Promise<StatFsLike> {
    const path = hostRoot && mountPoint !== '/' ? join(hostRoot, mountPoint) : (hostRoot ?? mountPoint);
    const call = Promise.resolve().then(() => statfs(path));
    return new Promise<StatFsLike>((resolve, reject) => {
      const timer = setTimeout(() => {
        stuck.add(mountPoint);
        call.finally(() => stuck.delete(mountPoint)).catch(() => {});
        reject(new Error(`no answer within ${mountTimeoutMs} ms`));
      }, mountTimeoutMs);
      call.then(
        (st) => {
          clearTimeout(timer);
          resolve(st);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }
}

/** Samples of one mount from its statfs result. */
export function fsSamples(mount: string, st: StatFsLike): SampleLike[] {
  const l = { mount };
  const used = (st.blocks - st.bfree) * st.bsize;
  const free = st.bavail * st.bsize;
  const samples: SampleLike[] = [
    { m: 'disk.size_bytes', l, v: st.blocks * st.bsize },
    { m: 'disk.used_bytes', l, v: used },
    { m: 'disk.free_bytes', l, v: free },
  ];
  const usedPct = percent(used, used + free);
  if (usedPct !== undefined) samples.push({ m: 'disk.used_pct', l, v: usedPct });
  // Some file systems (btrfs, vfat, overlay on them) have no inode table and report 0 inodes.
  if (st.files > 0) {
    const inodesUsed = st.files - st.ffree;
    samples.push(
      { m: 'disk.inodes_total', l, v: st.files },
      { m: 'disk.inodes_used', l, v: inodesUsed },
      { m: 'disk.inodes_free', l, v: st.ffree },
      { m: 'disk.inodes_used_pct', l, v: percent(inodesUsed, st.files) ?? 0 },
    );
  }
  return samples;
}

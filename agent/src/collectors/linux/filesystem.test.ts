import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FIXTURES,
  fakeStatfs,
  fixtureContext,
  recordingLogger,
  sampleValue,
  tempProcRoot,
} from '../../testing/support';
import { filesystemCollector, fsSamples, parseMounts, reportableMounts, type StatFsLike } from './filesystem';

describe('parseMounts and reportableMounts', () => {
  it('keeps only the real file systems of the recorded /proc/self/mounts', async () => {
    const { mounts, unparsed } = parseMounts(await readFile(join(FIXTURES, 'vm-1/self/mounts'), 'utf8'));
    expect(unparsed).toEqual([]);
    expect(mounts).toHaveLength(20);
    expect(reportableMounts(mounts)).toEqual([{ device: '/dev/vda', mountPoint: '/', fsType: 'ext4' }]);
  });

  it('keeps overlay, decodes escaped blanks and drops squashfs and lxcfs', async () => {
    const { mounts } = parseMounts(await readFile(join(FIXTURES, 'vm-2/self/mounts'), 'utf8'));
    expect(reportableMounts(mounts).map((m) => m.mountPoint)).toEqual([
      '/',
      '/var/lib/docker/overlay2/abc/merged',
      '/srv/my data',
    ]);
  });

  it('reports a mount point once, as the last file system mounted on it', () => {
    const { mounts } = parseMounts('/dev/sda1 /data ext4 rw 0 0\ntmpfs /data tmpfs rw 0 0\n');
    expect(reportableMounts(mounts)).toEqual([]);
  });
});

describe('fsSamples', () => {
  it('computes size, use and inodes like df, reserved blocks counting as neither used nor free', () => {
    const l = { mount: '/' };
    expect(
      fsSamples('/', { bsize: 4096, blocks: 1000, bfree: 400, bavail: 300, files: 100, ffree: 25 }),
    ).toEqual([
      { m: 'disk.size_bytes', l, v: 4_096_000 },
      { m: 'disk.used_bytes', l, v: 2_457_600 },
      { m: 'disk.free_bytes', l, v: 1_228_800 },
      { m: 'disk.used_pct', l, v: 66.67 },
      { m: 'disk.inodes_total', l, v: 100 },
      { m: 'disk.inodes_used', l, v: 75 },
      { m: 'disk.inodes_free', l, v: 25 },
      { m: 'disk.inodes_used_pct', l, v: 75 },
    ]);
  });

  it('leaves out inode metrics for file systems without an inode table', () => {
    const samples = fsSamples('/boot/efi', {
      bsize: 512,
      blocks: 10,
      bfree: 5,
      bavail: 5,
      files: 0,
      ffree: 0,
    });
    expect(samples.map((s) => s.m)).toEqual([
      'disk.size_bytes',
      'disk.used_bytes',
      'disk.free_bytes',
      'disk.used_pct',
    ]);
  });
});

describe('filesystemCollector', () => {
  it('reports each real mount with its label', async () => {
    const { logger } = recordingLogger();
    const asked: string[] = [];
    const fs = filesystemCollector({
      statfs: (path) => {
        asked.push(path);
        return fakeStatfs(path);
      },
    });
    const samples = await fs.collect(fixtureContext('vm-2', 1, logger));
    expect(asked).toEqual(['/', '/var/lib/docker/overlay2/abc/merged', '/srv/my data']);
    expect(sampleValue(samples, 'disk.used_pct', { mount: '/srv/my data' })).toBe(66.67);
    expect(samples).toHaveLength(24);
  });

  it('warns naming a mount statfs cannot read and reports the others', async () => {
    const { logger, warnings } = recordingLogger();
    const fs = filesystemCollector({
      statfs: async (path) => {
        if (path === '/srv/my data')
          throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return fakeStatfs(path);
      },
    });
    const samples = await fs.collect(fixtureContext('vm-2', 1, logger));
    expect(new Set(samples.map((s) => s.l?.mount))).toEqual(
      new Set(['/', '/var/lib/docker/overlay2/abc/merged']),
    );
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ mount: '/srv/my data', msg: 'cannot statfs /srv/my data' });
  });

  it('gives up on a mount that does not answer and asks again only once its call returns', async () => {
    const { logger, warnings } = recordingLogger();
    let release: (st: StatFsLike) => void = () => {};
    let calls = 0;
    const fs = filesystemCollector({
      mountTimeoutMs: 20,
      statfs: (path) => {
        if (path !== '/') return fakeStatfs(path);
        calls++;
        return calls === 1 ? new Promise<StatFsLike>((resolve) => (release = resolve)) : fakeStatfs(path);
      },
    });
    const first = await fs.collect(fixtureContext('vm-2', 1, logger));
    expect(first.some((s) => s.l?.mount === '/')).toBe(false);
    expect(warnings()[0]).toMatchObject({ mount: '/', err: 'no answer within 20 ms' });

    const second = await fs.collect(fixtureContext('vm-2', 2, logger));
    expect(second.some((s) => s.l?.mount === '/')).toBe(false);
    expect(calls).toBe(1);
    expect(warnings()[1]?.msg).toBe('statfs of / still pending; skipped');

    release(await fakeStatfs('/'));
    await new Promise((r) => setTimeout(r, 0));
    const third = await fs.collect(fixtureContext('vm-2', 3, logger));
    expect(sampleValue(third, 'disk.size_bytes', { mount: '/' })).toBe(4_096_000);
  });

  it('reads the mounts of the host init under another host root and asks statfs there', async () => {
    const { logger } = recordingLogger();
    const proc = await tempProcRoot('vm-2');
    try {
      await mkdir(join(proc.root, '1'));
      await writeFile(join(proc.root, '1/mounts'), '/dev/sda1 / ext4 rw 0 0\n/dev/sdb1 /data xfs rw 0 0\n');
      const asked: string[] = [];
      const fs = filesystemCollector({
        hostRoot: '/rootfs',
        statfs: (path) => {
          asked.push(path);
          return fakeStatfs(path);
        },
      });
      const samples = await fs.collect({ procRoot: proc.root, now: 1, logger });
      expect(asked).toEqual(['/rootfs', '/rootfs/data']);
      expect(new Set(samples.map((s) => s.l?.mount))).toEqual(new Set(['/', '/data']));
    } finally {
      await proc.remove();
    }
  });

  it('returns nothing and warns naming the file when /proc/self/mounts is missing', async () => {
    const { logger, warnings } = recordingLogger();
    const ctx = fixtureContext('missing', 1, logger);
    expect(await filesystemCollector({ statfs: fakeStatfs }).collect(ctx)).toEqual([]);
    expect(warnings().map((w) => w.file)).toEqual([join(ctx.procRoot, 'self/mounts')]);
  });
});

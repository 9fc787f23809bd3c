import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { FileCheckOutcome, PathTestReason } from '@flightdeck/schemas/api/files';
import { formatBytes } from '@flightdeck/schemas/format';

/** Bytes read per call while hashing: the memory one hash holds, whatever the file's size. */
const READ_CHUNK_BYTES = 256 * 1024;

/** What the agent found at a monitored path. `sha256` is set exactly when `status` is `hashed`. */
export interface FileCheck {
  status: FileCheckOutcome;
  sha256?: string;
  size?: number;
  /** Unix seconds of the last modification. */
  mtime?: number;
  /** Why it could not be hashed, in words a person can act on. */
  error?: string;
  /**
   * Device, inode, size, modification and change times of the file that was hashed: while they stay
   * the same the content is taken as unchanged (see {@link checkFile}'s `cached`).
   */
  identity?: string;
}

export interface CheckOptions {
  /** Files above this size are not hashed (`too_large`). */
  maxBytes: number;
  /** The previous check of this path: its hash is reused when the file's identity is the same. */
  cached?: { identity: string; sha256: string } | undefined;
  /**
   * Where the host's file system is mounted when the agent runs in a container (`/host`); paths
   * are read under it and named as the user gave them. Default `/`.
   */
  hostRoot?: string | undefined;
}

/** `path` as this process reaches it: under `hostRoot` when the agent sees the host through a mount. */
function onHost(path: string, hostRoot: string | undefined): string {
  return hostRoot && hostRoot !== '/' ? join(hostRoot, path) : path;
}

/** `O_NONBLOCK` keeps a FIFO put in the file's place between stat and open from blocking the open. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function identityOf(s: Stats): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
}

function agentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/** An fs error as a reason and a sentence naming the path. */
export function describeFsError(path: string, err: unknown): { reason: PathTestReason; message: string } {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return { reason: 'not_found', message: `No file at ${path}: check the path and its folders.` };
    case 'EACCES':
    case 'EPERM':
      return {
        reason: 'permission_denied',
        message: `Permission denied: the agent (running as ${agentUser()}) may not read ${path}. Grant it read access to the file and its folders.`,
      };
    case 'EISDIR':
      return { reason: 'is_directory', message: `${path} is a folder, not a file: name a file inside it.` };
    case 'ELOOP':
      return { reason: 'error', message: `${path} is a loop of symbolic links.` };
    case 'ENAMETOOLONG':
      return { reason: 'error', message: `${path} is longer than this system allows.` };
    default:
      return {
        reason: 'error',
        message: `${path} could not be read: ${err instanceof Error ? err.message : String(err)}`,
      };
  }
}

/** Why a stat result is not a file the agent can hash; undefined for a regular file. */
function notAFile(path: string, s: Stats): { reason: PathTestReason; message: string } | undefined {
  if (s.isFile()) return undefined;
  if (s.isDirectory()) {
    return { reason: 'is_directory', message: `${path} is a folder, not a file: name a file inside it.` };
  }
  return {
    reason: 'not_regular_file',
    message: `${path} is not a regular file (a device, socket or pipe): only regular files can be hashed.`,
  };
}

function tooLarge(path: string, size: number, maxBytes: number): string {
  return `${path} is ${formatBytes(size)}, above the agent's limit of ${formatBytes(maxBytes)} for hashing.`;
}

function notAbsolute(path: string): string {
  return `${path} is not an absolute path on this ${process.platform} host.`;
}

/**
 * Hashes the file at `path` with SHA-256, streamed in chunks, never reading more than `maxBytes`
 * (a file that grows past it while being read is `too_large`). Never rejects: a missing path is
 * `missing`; a path the agent may not read, a folder or a device is `unreadable`; each with a
 * sentence saying why. When the file's identity (device, inode, size, modification and change
 * times) equals `cached.identity`, the cached hash is returned without reading the content.
 */
export async function checkFile(path: string, options: CheckOptions): Promise<FileCheck> {
  if (!isAbsolute(path)) return { status: 'missing', error: notAbsolute(path) };
  const real = onHost(path, options.hostRoot);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // stat first: opening a FIFO or a device could block or have side effects.
    const before = await stat(real);
    const wrongKind = notAFile(path, before);
    if (wrongKind) return { status: 'unreadable', error: wrongKind.message };
    handle = await open(real, OPEN_FLAGS);
    const s = await handle.stat();
    const kind = notAFile(path, s);
    if (kind) return { status: 'unreadable', error: kind.message };
    const meta = { size: s.size, mtime: Math.floor(s.mtimeMs / 1000) };
    if (s.size > options.maxBytes) {
      return { status: 'too_large', ...meta, error: tooLarge(path, s.size, options.maxBytes) };
    }
    const identity = identityOf(s);
    if (options.cached?.identity === identity) {
      return { status: 'hashed', sha256: options.cached.sha256, ...meta, identity };
    }
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > options.maxBytes) {
        return { status: 'too_large', ...meta, size: total, error: tooLarge(path, total, options.maxBytes) };
      }
      hash.update(buffer.subarray(0, bytesRead));
    }
    return { status: 'hashed', sha256: hash.digest('hex'), size: total, mtime: meta.mtime, identity };
  } catch (err) {
    const { reason, message } = describeFsError(path, err);
    return { status: reason === 'not_found' ? 'missing' : 'unreadable', error: message };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The agent's answer to "can you monitor this path?". */
export interface PathTestOutcome {
  status: 'ok' | 'error';
  reason?: Exclude<PathTestReason, 'no_answer'>;
  message: string;
  size?: number;
}

/**
 * Whether `path` is a regular file the agent can read and hash: it exists, is not a folder or a
 * device, is at most `maxBytes`, and opens for reading. Never rejects.
 */
export async function testPath(
  path: string,
  options: { maxBytes: number; hostRoot?: string | undefined },
): Promise<PathTestOutcome> {
  if (!isAbsolute(path)) return { status: 'error', reason: 'not_found', message: notAbsolute(path) };
  const real = onHost(path, options.hostRoot);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const s = await stat(real);
    const kind = notAFile(path, s);
    if (kind)
      return {
        status: 'error',
        reason: kind.reason as Exclude<PathTestReason, 'no_answer'>,
        message: kind.message,
      };
    if (s.size > options.maxBytes) {
      return {
        status: 'error',
        reason: 'too_large',
        message: tooLarge(path, s.size, options.maxBytes),
        size: s.size,
      };
    }
    handle = await open(real, OPEN_FLAGS);
    return {
      status: 'ok',
      message: `${path} is a readable file (${formatBytes(s.size)}).`,
      size: s.size,
    };
  } catch (err) {
    const { reason, message } = describeFsError(path, err);
    return { status: 'error', reason: reason === 'no_answer' ? 'error' : reason, message };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

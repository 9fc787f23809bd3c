import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The pid file in the state directory: one running agent per state directory (and so per host). */
export const PID_FILE = 'agent.pid';

/** Another live agent holds the state directory. */
export class AgentLockedError extends Error {
  constructor(
    readonly pid: number,
    readonly file: string,
  ) {
    super(`another Flightdeck agent is already running (pid ${pid}, ${file})`);
    this.name = 'AgentLockedError';
  }
}

export interface AgentLock {
  readonly file: string;
  /** Removes the pid file if it is still this process's. */
  release(): void;
}

/** True while a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True while `pid` is a running agent: alive, and where `/proc` tells (Linux) its command line
 * is an agent's `run`. A pid file outlives a reboot in /var/lib, and after one its pid may belong to
 * some other process; that one does not hold the lock.
 */
export function isAgentProcess(pid: number, procRoot = '/proc'): boolean {
  if (!isProcessAlive(pid)) return false;
  let cmdline: string;
  try {
    cmdline = readFileSync(join(procRoot, String(pid), 'cmdline'), 'utf8');
  } catch {
    return true; // no /proc (Windows) or not readable: alive is all we know
  }
  // `flightdeck-agent run`, `node dist/agent.js run`, `tsx agent/src/cli.ts run`...
  const args = cmdline.split('\0');
  return args.includes('run') && args.some((a) => /agent/i.test(a));
}

/** The pid in the state directory's pid file; undefined when there is none or it holds no pid. */
export function readPidFile(stateDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(stateDir, PID_FILE), 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the state directory for this process: creates the pid file exclusively. A pid file whose
 * process is gone (a crash, a reboot) or is no agent is stale and replaced; one of another running
 * agent throws {@link AgentLockedError}.
 */
export function acquireLock(stateDir: string, pid: number = process.pid): AgentLock {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, PID_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${pid}\n`, { flag: 'wx', mode: 0o644 });
      return {
        file,
        release() {
          if (readPidFile(stateDir) === pid) rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readPidFile(stateDir);
    if (holder !== undefined && holder !== pid && isAgentProcess(holder)) {
      throw new AgentLockedError(holder, file);
    }
    // Stale (or our own pid, reused after a crash): remove it, unless another agent replaced it
    // in the meantime, and try again.
    if (readPidFile(stateDir) === holder) rmSync(file, { force: true });
  }
  throw new Error(`could not take ${file}: it keeps changing; is another agent starting?`);
}

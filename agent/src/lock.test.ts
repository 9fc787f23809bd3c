import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentLockedError, acquireLock, isAgentProcess, isProcessAlive, PID_FILE, readPidFile } from './lock';
import { idleProcess } from './testing/support';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-agent-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  const pid = Number(child.stdout);
  expect(isProcessAlive(pid)).toBe(false);
  return pid;
}

describe('the agent lock', () => {
  it('writes the pid file and removes it on release', () => {
    const lock = acquireLock(join(dir, 'state'));
    expect(readPidFile(join(dir, 'state'))).toBe(process.pid);
    lock.release();
    expect(existsSync(join(dir, 'state', PID_FILE))).toBe(false);
  });

  it('refuses a second agent while the first one lives', async () => {
    const other = await idleProcess(['flightdeck-agent', 'run']);
    try {
      writeFileSync(join(dir, PID_FILE), `${other.pid}\n`);
      expect(isAgentProcess(other.pid)).toBe(true);
      expect(() => acquireLock(dir)).toThrow(AgentLockedError);
      expect(() => acquireLock(dir)).toThrow(`pid ${other.pid}`);
      expect(readPidFile(dir)).toBe(other.pid);
    } finally {
      await other.kill();
    }
  });

  it('takes over a pid file whose pid now belongs to a process that is no agent (after a reboot)', async () => {
    const unrelated = await idleProcess(['ssh-agent', '-D']);
    try {
      writeFileSync(join(dir, PID_FILE), `${unrelated.pid}\n`);
      expect(isAgentProcess(unrelated.pid)).toBe(false);
      acquireLock(dir).release();
    } finally {
      await unrelated.kill();
    }
  });

  it('replaces a stale pid file left by a process that is gone, or one holding no pid', () => {
    writeFileSync(join(dir, PID_FILE), `${deadPid()}\n`);
    const lock = acquireLock(dir);
    expect(readFileSync(join(dir, PID_FILE), 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    writeFileSync(join(dir, PID_FILE), 'garbage');
    acquireLock(dir).release();
  });

  it('leaves a pid file that another agent took over alone on release', () => {
    const lock = acquireLock(dir);
    writeFileSync(join(dir, PID_FILE), '4194304\n');
    lock.release();
    expect(readPidFile(dir)).toBe(4194304);
  });
});

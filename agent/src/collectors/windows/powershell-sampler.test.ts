import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPowerShellSampler, type PowerShellSampler, type SamplerResult } from './powershell-sampler';

// These tests exercise the process handling with a Node script that behaves like
// `powershell.exe -Command -` (fixtures/fake-powershell.mjs); they run on any OS.
const FIXTURES = join(import.meta.dirname, 'fixtures');
const FAKE = join(FIXTURES, 'fake-powershell.mjs');
const SERVER_1 = join(FIXTURES, 'server-2022-1.out');
const SERVER_2 = join(FIXTURES, 'server-2022-2.out');
const fixtureLine = (file: string) => readFileSync(file, 'utf8').trim();

let dir: string;
const samplers: PowerShellSampler[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fd-pwsh-'));
});
afterEach(async () => {
  await Promise.all(samplers.splice(0).map((s) => s.close()));
  delete process.env.FAKE_POWERSHELL_LOG;
  await rm(dir, { recursive: true, force: true });
});

function fake(
  args: string[],
  options: { timeoutMs?: number; startTimeoutMs?: number; prelude?: string } = {},
) {
  const sampler = createPowerShellSampler({
    command: process.execPath,
    args: [FAKE, ...args],
    timeoutMs: options.timeoutMs ?? 1500,
    startTimeoutMs: options.startTimeoutMs ?? 5000,
    ...(options.prelude ? { prelude: options.prelude } : {}),
  });
  samplers.push(sampler);
  return sampler;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** True once `pid` is gone (a killed process takes a moment to be reaped), false after 3 s. */
async function exits(pid: number): Promise<boolean> {
  for (let i = 0; i < 60 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

function expectOk(result: SamplerResult): string[] {
  if (!result.ok) throw new Error(`expected an answer, got: ${result.error}`);
  return result.lines;
}

function expectError(result: SamplerResult): string {
  if (result.ok) throw new Error(`expected an error, got ${result.lines.length} line(s)`);
  return result.error;
}

describe('createPowerShellSampler', () => {
  it('answers each script with the lines printed before its end marker, from one long-lived shell', async () => {
    const sampler = fake(['answer', SERVER_1, SERVER_2]);
    expect(sampler.pid).toBeUndefined();
    const first = expectOk(await sampler.run('Get-Date'));
    const pid = sampler.pid;
    expect(pid).toBeGreaterThan(0);
    // The fake writes Windows line ends in pieces: the reader joins chunks and drops the CRs.
    expect(first).toEqual([fixtureLine(SERVER_1)]);
    const second = expectOk(await sampler.run('Get-Date'));
    expect(second).toEqual([fixtureLine(SERVER_2)]);
    expect(sampler.pid).toBe(pid);
  });

  it('writes the prelude once per shell and wraps each script so it always prints its marker', async () => {
    const log = join(dir, 'stdin.log');
    process.env.FAKE_POWERSHELL_LOG = log;
    const sampler = fake(['answer', SERVER_1], { prelude: "$ProgressPreference = 'SilentlyContinue'" });
    expectOk(await sampler.run('$x = 1'));
    expectOk(await sampler.run("$y = 'a\nb'"));
    const lines = (await readFile(log, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe("$ProgressPreference = 'SilentlyContinue'");
    expect(lines[1]).toMatch(
      /^try \{ \$x = 1 \} finally \{ \[Console\]::Out\.WriteLine\('__FLIGHTDECK_END_\d+_1__'\)/,
    );
    // A script is always sent as one line: PowerShell reading stdin runs line by line.
    expect(lines[2]).toContain("$y = 'a b'");
    expect(lines[2]).toContain('_2__');
  });

  it('gives up on a shell that does not answer, kills it and starts a new one for the next script', async () => {
    const state = join(dir, 'state');
    // Each new shell's first script has the start-up allowance (Node starting the fake takes a moment).
    const sampler = fake(['hang-once', state, SERVER_1], { timeoutMs: 300, startTimeoutMs: 2000 });
    const started = Date.now();
    const error = expectError(await sampler.run('Get-Date'));
    expect(error).toMatch(/no answer within 2000 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
    const hungPid = Number(await readFile(state, 'utf8'));
    expect(await exits(hungPid)).toBe(true); // the hung shell was killed
    expect(expectOk(await sampler.run('Get-Date'))).toEqual([fixtureLine(SERVER_1)]);
    expect(sampler.pid).not.toBe(hungPid);
  });

  it('waits longer for the first answer of a new shell than for the next ones', async () => {
    const sampler = fake(['hang'], { timeoutMs: 100, startTimeoutMs: 700 });
    const started = Date.now();
    expectError(await sampler.run('Get-Date'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
  });

  it('fails the script of a shell that exits, with its stderr, and restarts on the next script', async () => {
    const state = join(dir, 'state');
    const sampler = fake(['exit-once', state, SERVER_1], { timeoutMs: 5000, startTimeoutMs: 5000 });
    const started = Date.now();
    const error = expectError(await sampler.run('Get-Date'));
    expect(error).toMatch(/exited \(code 3\) before answering/);
    expect(Date.now() - started).toBeLessThan(3000); // not the time-out
    expect(expectOk(await sampler.run('Get-Date'))).toEqual([fixtureLine(SERVER_1)]);
  });

  it('reports stderr of a shell that dies half-way through an answer', async () => {
    const sampler = fake(['exit']);
    const error = expectError(await sampler.run('Get-Date'));
    expect(error).toMatch(/exited \(code 3\)/);
    expect(error).toMatch(/stderr: Fatal error: the shell stopped/);
  });

  it('keeps lines printed before the document, for the parser to skip', async () => {
    const sampler = fake(['noisy', SERVER_1]);
    const lines = expectOk(await sampler.run('Get-Date'));
    expect(lines).toEqual(['WARNING: the WMI repository is being rebuilt', fixtureLine(SERVER_1)]);
  });

  it('never rejects when the shell cannot be started', async () => {
    const sampler = createPowerShellSampler({
      command: join(dir, 'no-such-powershell.exe'),
      timeoutMs: 2000,
    });
    samplers.push(sampler);
    const error = expectError(await sampler.run('Get-Date'));
    expect(error).toMatch(/no-such-powershell\.exe/);
    expect(error).toMatch(/ENOENT/);
    // And keeps trying on the next run, in case it was installed since.
    expectError(await sampler.run('Get-Date'));
  });

  it('refuses an answer over the size limit and starts afresh', async () => {
    const sampler = createPowerShellSampler({
      command: process.execPath,
      args: [FAKE, 'big', '5000'],
      maxOutputChars: 1000,
      timeoutMs: 2000,
    });
    samplers.push(sampler);
    expect(expectError(await sampler.run('Get-Date'))).toMatch(/longer than 1000 characters/);
    expect(sampler.pid).toBeUndefined();
  });

  it('runs overlapping calls one after the other, each with its own answer', async () => {
    const sampler = fake(['answer', SERVER_1, SERVER_2]);
    const [a, b] = await Promise.all([sampler.run('1'), sampler.run('2')]);
    expect(expectOk(a)).toEqual([fixtureLine(SERVER_1)]);
    expect(expectOk(b)).toEqual([fixtureLine(SERVER_2)]);
  });

  it('ends the shell on close, ends a call still waiting, and answers later calls with an error', async () => {
    const sampler = fake(['hang'], { timeoutMs: 10_000, startTimeoutMs: 10_000 });
    const waiting = sampler.run('Get-Date');
    await new Promise((r) => setTimeout(r, 200));
    const pid = sampler.pid as number;
    expect(pid).toBeGreaterThan(0);
    await sampler.close();
    expect(expectError(await waiting)).toMatch(/closed/);
    expect(await exits(pid)).toBe(true);
    expect(expectError(await sampler.run('Get-Date'))).toMatch(/closed/);
  });
});

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { errorMessage } from '../linux/proc';

/** How Windows PowerShell is started: no banner, no profile, no prompts, commands read from stdin. */
export const POWERSHELL_COMMAND = 'powershell.exe';
export const POWERSHELL_ARGS: readonly string[] = [
  '-NoLogo',
  '-NoProfile',
  '-NonInteractive',
  '-Command',
  '-',
];

export interface PowerShellSamplerOptions {
  /** Default {@link POWERSHELL_COMMAND}; tests start a small script that behaves like it. */
  command?: string;
  /** Default {@link POWERSHELL_ARGS}. */
  args?: readonly string[];
  /** One line written once after each start, before the first script (settings, function definitions). */
  prelude?: string;
  /** How long a script may take to answer (default 4 s, under the agent's 5 s per collector). */
  timeoutMs?: number;
  /** How long the first script after a start may take: the shell loads and WMI warms up (default 30 s). */
  startTimeoutMs?: number;
  /** Largest answer accepted, in characters (default 8 MiB). */
  maxOutputChars?: number;
}

/** What one script gave: the lines it printed before the end marker, or why there are none. */
export type SamplerResult = { ok: true; lines: string[] } | { ok: false; error: string };

/** A long-lived shell that runs one script line per call (see {@link createPowerShellSampler}). */
export interface PowerShellSampler {
  /** Runs one line of PowerShell and resolves with what it printed. Never rejects. */
  run(script: string): Promise<SamplerResult>;
  /** Ends the shell; later calls to `run` resolve with an error. */
  close(): Promise<void>;
  /** Process id of the shell now running, if any (for logs and tests). */
  readonly pid: number | undefined;
}

interface Pending {
  marker: string;
  lines: string[];
  chars: number;
  resolve(result: SamplerResult): void;
  timer: NodeJS.Timeout;
}

const MARKER_PREFIX = '__FLIGHTDECK_END_';
/** Kept of the shell's stderr to explain a failure. */
const STDERR_TAIL = 2000;

/**
 * One `powershell.exe -Command -` child kept for the agent's lifetime, so a run costs a few CIM
 * queries and not a PowerShell start (about a second of CPU). Each script is written as one line
 * wrapped so that, whatever happens inside it, it ends by printing a marker line unique to the
 * call; the sampler collects the lines before that marker.
 *
 * A script that does not answer in time gets the shell killed (it is hung, or WMI is), and a shell
 * that exits fails the script it was running; either way the next call starts a fresh shell. Calls
 * never overlap: one waits for the previous to finish. Nothing here throws or rejects.
 */
export function createPowerShellSampler(options: PowerShellSamplerOptions = {}): PowerShellSampler {
  const command = options.command ?? POWERSHELL_COMMAND;
  const args = options.args ?? POWERSHELL_ARGS;
  const timeoutMs = options.timeoutMs ?? 4000;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const maxChars = options.maxOutputChars ?? 8 * 1024 * 1024;

  let child: ChildProcessWithoutNullStreams | undefined;
  /** True until the shell that runs now has answered once. */
  let fresh = true;
  let pending: Pending | undefined;
  let stderrTail = '';
  let partial = '';
  let sequence = 0;
  let closed = false;
  let tail: Promise<unknown> = Promise.resolve();

  function settle(result: SamplerResult) {
    const p = pending;
    if (!p) return;
    pending = undefined;
    clearTimeout(p.timer);
    p.resolve(result);
  }

  function fail(error: string) {
    const detail = stderrTail.trim();
    settle({ ok: false, error: detail ? `${error}; stderr: ${detail.slice(-500)}` : error });
  }

  /** Kills the shell now running; its exit is ignored, and the next call starts another. */
  function discard() {
    const c = child;
    child = undefined;
    partial = '';
    if (c && c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }

  function onLine(line: string) {
    const p = pending;
    if (!p) return; // output after a script gave up (it was killed, or timed out)
    // Normally the marker is a line of its own; anything the shell wrote before it on that line is kept.
    const at = line.indexOf(p.marker);
    if (at >= 0) {
      const before = line.slice(0, at);
      if (before.trim() !== '') p.lines.push(before);
      fresh = false;
      settle({ ok: true, lines: p.lines });
      return;
    }
    // The marker of an earlier call that gave up: what came before it belonged to that call.
    if (line.includes(MARKER_PREFIX)) {
      p.lines = [];
      p.chars = 0;
      return;
    }
    p.chars += line.length + 1;
    if (p.chars > maxChars) {
      fail(`answer longer than ${maxChars} characters`);
      discard();
      return;
    }
    p.lines.push(line);
  }

  function start(): ChildProcessWithoutNullStreams | string {
    let c: ChildProcessWithoutNullStreams;
    try {
      c = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (err) {
      return `cannot start ${command}: ${errorMessage(err)}`;
    }
    child = c;
    fresh = true;
    stderrTail = '';
    partial = '';
    const decoder = new StringDecoder('utf8');
    c.stdout.on('data', (chunk: Buffer) => {
      if (child !== c) return;
      partial += decoder.write(chunk);
      let nl = partial.indexOf('\n');
      while (nl >= 0 && child === c) {
        onLine(partial.slice(0, nl).replace(/\r$/, ''));
        partial = partial.slice(nl + 1);
        nl = partial.indexOf('\n');
      }
    });
    c.stderr.on('data', (chunk: Buffer) => {
      if (child === c) stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    c.on('error', (err) => {
      if (child !== c) return;
      child = undefined;
      fail(`cannot run ${command}: ${err.message}`);
    });
    // `close` comes after the last output has been read, so an answer printed just before exiting counts.
    c.on('close', (code, signal) => {
      if (child !== c) return;
      child = undefined;
      fail(`${command} exited (${signal ?? `code ${code}`}) before answering`);
    });
    // A write to a shell that just died fails with EPIPE; its exit fails the call.
    c.stdin.on('error', () => {});
    // The shell must never keep the agent alive; a pending call's timer does while it waits.
    c.unref();
    for (const stream of [c.stdin, c.stdout, c.stderr]) (stream as { unref?: () => void }).unref?.();
    if (options.prelude) c.stdin.write(`${options.prelude}\n`);
    return c;
  }

  function runNow(script: string): Promise<SamplerResult> {
    if (closed) return Promise.resolve({ ok: false, error: 'the PowerShell sampler is closed' });
    const c = child ?? start();
    if (typeof c === 'string') return Promise.resolve({ ok: false, error: c });
    sequence += 1;
    const marker = `${MARKER_PREFIX}${process.pid}_${sequence}__`;
    const wait = fresh ? Math.max(startTimeoutMs, timeoutMs) : timeoutMs;
    return new Promise<SamplerResult>((resolve) => {
      const timer = setTimeout(() => {
        fail(`no answer within ${wait} ms; the shell was restarted`);
        discard();
      }, wait);
      pending = { marker, lines: [], chars: 0, resolve, timer };
      // `finally` prints the marker even when the script throws; the line must stay one line.
      const line = `try { ${script.replace(/[\r\n]+/g, ' ')} } finally { [Console]::Out.WriteLine('${marker}'); [Console]::Out.Flush() }`;
      c.stdin.write(`${line}\n`);
    });
  }

  return {
    run(script) {
      const result = tail.then(() => runNow(script));
      tail = result;
      return result;
    },
    async close() {
      closed = true;
      fail('the PowerShell sampler was closed');
      await tail;
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
      c.stdin.end();
      const timer = setTimeout(() => c.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(timer);
    },
    get pid() {
      return child?.pid;
    },
  };
}

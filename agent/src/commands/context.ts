import { hostname } from 'node:os';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { currentHostKind, type HostKind } from '../config';

/** What a command reads from and writes to; the process supplies the real ones, tests their own. */
export interface CliContext {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  host: HostKind;
  hostname: string;
  /** Aborted to stop `run`; the process wires SIGINT and SIGTERM to it. */
  stop: AbortSignal;
  /** Unix milliseconds. */
  now(): number;
  /** Files `register` reads the machine id from; default `/etc/machine-id` under the host root. */
  machineIdFiles?: readonly string[];
  /** Windows' MachineGuid; default `reg query`. */
  windowsMachineGuid?: () => string | undefined;
}

export function processContext(stop: AbortSignal): CliContext {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    env: process.env,
    host: currentHostKind(),
    hostname: hostname(),
    stop,
    now: Date.now,
  };
}

/** A failure the user can act on: the message is printed as is, then the process exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Wrong arguments: the message and the usage go to stderr, exit code 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
    this.name = 'UsageError';
  }
}

/** `node:util` parseArgs with strict checking; its errors become {@link UsageError}s. */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: readonly string[],
  options: T,
) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(`${command}: ${(err as Error).message}`);
    }
    throw err;
  }
}

/** Why a fetch failed, in words: the cause's message (ECONNREFUSED, ENOTFOUND...) or the time-out. */
export function fetchFailure(err: unknown, timeoutMs: number): string {
  if ((err as Error)?.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = (err as Error & { cause?: Error & { code?: string } })?.cause;
  return cause?.message ?? cause?.code ?? (err as Error)?.message ?? String(err);
}

import { InvalidBatchError } from '@flightdeck/schemas/errors';
import { CommandReply, CommandRequest, SubjectToken, zodIssuePath } from '@flightdeck/schemas/wire';
import { pino } from 'pino';
import type { z } from 'zod';

/** Pieces both bus implementations share: options, errors, message checks, command answers. */

/** The part of a pino logger the bus uses. */
export interface BusLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Options both bus implementations take. */
export interface BusCommonOptions {
  /** `fd` outside tests; tests use a prefix of their own. */
  subjectPrefix?: string;
  logger?: BusLogger;
  /** Delay before the first redelivery of a batch whose handler threw (default 1,000 ms). */
  retryBaseMs?: number;
  /** The delay doubles on each failure up to this (default 60,000 ms). */
  retryMaxMs?: number;
}

/** Thrown by every call on a bus that is closing or closed. */
export class BusClosedError extends Error {
  readonly code = 'bus_unavailable' as const;
  constructor(what: string) {
    super(`the bus is closed: ${what} is no longer accepted`);
    this.name = 'BusClosedError';
  }
}

/** The bus could not take a message (NATS down, JetStream did not acknowledge in time). */
export class BusUnavailableError extends Error {
  readonly code = 'bus_unavailable' as const;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BusUnavailableError';
  }
}

export const DEFAULT_CONCURRENCY = 64;

export function defaultLogger(): BusLogger {
  return pino({ name: 'bus' });
}

/** Exponential backoff for the `attempt`-th failure (1-based). */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
}

/** Parses a bus message other than a metric batch; throws {@link InvalidBatchError} naming the field. */
export function parseMessage<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new InvalidBatchError(zodIssuePath(issue.path), issue.message);
}

/** A tenant token, or `'*'` for every tenant. */
export function checkTenantFilter(tenant: string): void {
  if (tenant !== '*') parseMessage(SubjectToken, tenant);
}

export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Runs a command handler for one raw request and returns the reply to send, always a valid
 * {@link CommandReply}; `null` when the requester's deadline has already passed (nobody waits).
 * A handler that throws or answers something invalid becomes an `error` reply.
 */
export async function answerCommand(
  raw: unknown,
  handler: (request: CommandRequest) => Promise<CommandReply>,
  logger: BusLogger,
): Promise<CommandReply | null> {
  const errorReply = (id: string, message: string): CommandReply => ({
    v: 1,
    id,
    status: 'error',
    message,
    ts: Date.now(),
  });
  let request: CommandRequest;
  try {
    request = parseMessage(CommandRequest, raw);
  } catch (err) {
    const rawId = (raw as { id?: unknown } | null)?.id;
    const id = typeof rawId === 'string' && rawId.length > 0 && rawId.length <= 64 ? rawId : 'invalid';
    return errorReply(id, asError(err).message);
  }
  if (request.deadline <= Date.now()) return null;
  try {
    const reply = await handler(request);
    return parseMessage(CommandReply, reply);
  } catch (err) {
    logger.warn({ err, command: request.command, id: request.id }, 'command failed');
    return errorReply(request.id, asError(err).message);
  }
}

/** Calls a fan-out subscriber; what it throws (or rejects with) is logged, never given to the publisher. */
export function callSafely<T>(handler: (msg: T) => void, msg: T, logger: BusLogger, what: string): void {
  try {
    const r = handler(msg) as unknown;
    // A subscriber may be async even though the contract says void: never let it reject unhandled.
    if (r instanceof Promise) r.catch((err) => logger.error({ err }, `${what} subscriber failed`));
  } catch (err) {
    logger.error({ err }, `${what} subscriber failed`);
  }
}

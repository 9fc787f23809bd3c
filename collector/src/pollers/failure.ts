import type { PollerFailure, PollerFailureCode } from '@flightdeck/schemas';

/** A failure result with its code and message. */
export function failure(code: PollerFailureCode, message: string): PollerFailure {
  return { ok: false, code, message };
}

/** `host:port`, with an IPv6 address in brackets. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** An error's code (`ECONNREFUSED`, `28P01`, `ER_ACCESS_DENIED_ERROR`), if it has one. */
export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** An error's message, for anything thrown. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Thrown by {@link withTimeout} when the time is up. */
export class TimeoutError extends Error {
  readonly code = 'FD_TIMEOUT';
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * Settles with `promise`, or rejects with a {@link TimeoutError} after `ms`. The work itself is not
 * cancelled: callers pair it with a driver time-out that ends the work too, so the deadline here
 * only guarantees the caller is answered on time.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
  'HANDSHAKE_NO_SSL_SUPPORT',
]);

/**
 * The failure for an error of the network or of TLS, or undefined for any other error (a
 * driver's own, which its poller classifies). `what` names the service for the messages, e.g.
 * "PostgreSQL at 10.0.0.5:5432".
 */
export function networkFailure(
  err: unknown,
  what: string,
  host: string,
  timeoutMs: number,
): PollerFailure | undefined {
  const code = errorCode(err);
  const detail = errorMessage(err);
  switch (code) {
    case 'ECONNREFUSED':
      return failure(
        'connection_failed',
        `Failed to connect to ${what}: the connection was refused. Check that the service runs and listens on this port, and that no firewall rejects the collector.`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return failure(
        'not_found',
        `The host name "${host}" could not be resolved (${code}). Check the host of ${what}.`,
      );
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return failure(
        'connection_failed',
        `Failed to connect to ${what}: no route to the host (${code}). Check the address and the network between the collector and the host.`,
      );
    case 'ECONNRESET':
    case 'EPIPE':
      return failure(
        'connection_failed',
        `Failed to connect to ${what}: the server closed the connection (${code}). Check the port and the service logs.`,
      );
    case 'ETIMEDOUT':
    case 'FD_TIMEOUT':
      return failure(
        'timeout',
        `${what} did not respond within ${timeoutMs} ms. Check the host, the port and any firewall in between, then try again.`,
      );
  }
  if (code && (TLS_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_'))) {
    return failure('tls_error', `The TLS connection to ${what} failed: ${detail}.`);
  }
  return undefined;
}

/** Whether a result is a failure. */
export function isFailure(value: unknown): value is PollerFailure {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

/**
 * A mistake in the code rather than a target's failure: it must surface, not turn into
 * "unavailable". Drivers and the network report their errors as plain `Error`s with a code.
 */
export function isProgrammerError(err: unknown): boolean {
  return err instanceof TypeError || err instanceof ReferenceError || err instanceof RangeError;
}

import { connect } from 'node:net';
import type { PollerFailure } from '@flightdeck/schemas';
import { failure, hostPort, networkFailure } from './failure';

/** What kind of server answered on a port. */
export type EngineKind = 'postgresql' | 'mysql' | 'http' | 'tls' | 'ssh' | 'other';

/** The kind of server and what it said about itself (MySQL's version, an HTTP status line). */
export interface EngineGuess {
  engine: EngineKind;
  detail?: string;
}

/** PostgreSQL's SSLRequest: length 8, code 80877103. A PostgreSQL server answers one byte, S or N. */
const PG_SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

/** Printable start of what a server sent, for a message. */
function printable(buf: Buffer): string {
  return buf
    .subarray(0, 64)
    .toString('latin1')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim();
}

/**
 * What kind of server sent `buf` as its first bytes, after the sniffer sent a PostgreSQL SSLRequest.
 * MySQL speaks first (a handshake packet: 3-byte length, sequence 0, protocol 10, or an error
 * packet 0xff), PostgreSQL answers the request with a single S or N, HTTP servers with a status
 * line. Undefined while more bytes could change the answer; `complete` says no more will come.
 */
export function classifyFirstBytes(buf: Buffer, complete: boolean): EngineGuess | undefined {
  if (buf.length === 0) return undefined;
  if (buf.length >= 5 && buf[3] === 0 && (buf[4] === 10 || buf[4] === 0xff)) {
    if (buf[4] === 10) {
      const end = buf.indexOf(0, 5);
      return {
        engine: 'mysql',
        detail: buf.subarray(5, end > 0 ? end : Math.min(buf.length, 69)).toString('latin1'),
      };
    }
    return { engine: 'mysql', detail: printable(buf.subarray(7)) };
  }
  const text = buf.subarray(0, 8).toString('latin1');
  if (text.startsWith('HTTP/')) return { engine: 'http', detail: buf.toString('latin1').split('\r\n')[0] };
  if (text.startsWith('SSH-')) return { engine: 'ssh', detail: printable(buf).split(' ')[0] };
  if ((buf[0] === 0x15 || buf[0] === 0x16) && buf[1] === 3) return { engine: 'tls' };
  if (buf.length === 1 && (buf[0] === 0x53 || buf[0] === 0x4e)) {
    // One byte S or N is PostgreSQL, unless it is the first byte of a MySQL packet still arriving.
    return complete ? { engine: 'postgresql' } : undefined;
  }
  if (buf[0] === 0x45 && buf.length >= 5) return { engine: 'postgresql', detail: printable(buf.subarray(5)) };
  if (buf.length < 5 && !complete) return undefined;
  return { engine: 'other', detail: printable(buf) };
}

/** How long to wait for more bytes after a reply that could be the start of a longer one. */
const SETTLE_MS = 100;

/**
 * Opens a TCP connection, sends a PostgreSQL SSLRequest and reads what comes back, to tell which
 * kind of server listens before a driver misreads it. Settles within `timeoutMs`: a failure for a
 * port nobody answers on, a host that does not resolve, or a server that stays silent.
 * `expected` names the service for the messages ("PostgreSQL"). `probeAfterMs` is how long to
 * listen before sending: a MySQL server greets at once, so a MySQL check never sends anything to it.
 */
export function sniffEngine(
  host: string,
  port: number,
  timeoutMs: number,
  expected: string,
  probeAfterMs = 0,
): Promise<EngineGuess | PollerFailure> {
  const target = hostPort(host, port);
  const what = `${expected} at ${target}`;
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let connected = false;
    let settle: NodeJS.Timeout | undefined;
    let probe: NodeJS.Timeout | undefined;
    const socket = connect({ host, port });
    const done = (result: EngineGuess | PollerFailure) => {
      clearTimeout(deadline);
      clearTimeout(settle);
      clearTimeout(probe);
      socket.destroy();
      resolve(result);
    };
    const deadline = setTimeout(() => {
      const guess = received.length > 0 ? classifyFirstBytes(received, true) : undefined;
      if (guess) return done(guess);
      done(
        failure(
          'timeout',
          connected
            ? `${target} accepted the connection but did not answer within ${timeoutMs} ms: check that ${expected} listens on this port and is not overloaded.`
            : `${what} did not respond within ${timeoutMs} ms. Check the host, the port and any firewall in between, then try again.`,
        ),
      );
    }, timeoutMs);
    socket.once('connect', () => {
      connected = true;
      const send = () => {
        if (received.length === 0) socket.write(PG_SSL_REQUEST);
      };
      if (probeAfterMs > 0) probe = setTimeout(send, Math.min(probeAfterMs, timeoutMs / 2));
      else send();
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      clearTimeout(settle);
      const guess = classifyFirstBytes(received, false);
      if (guess) return done(guess);
      settle = setTimeout(() => {
        const settled = classifyFirstBytes(received, true);
        if (settled) done(settled);
      }, SETTLE_MS);
    });
    socket.once('end', () => {
      const guess = classifyFirstBytes(received, true);
      done(
        guess ??
          failure(
            'connection_failed',
            `Failed to connect to ${what}: the server closed the connection without answering. Check the port and the service logs.`,
          ),
      );
    });
    socket.once('error', (err) => {
      const guess = received.length > 0 ? classifyFirstBytes(received, true) : undefined;
      done(
        guess ??
          networkFailure(err, what, host, timeoutMs) ??
          failure('connection_failed', `Failed to connect to ${what}: ${err.message}.`),
      );
    });
  });
}

const ENGINE_NAMES: Record<EngineKind, string> = {
  postgresql: 'a PostgreSQL server',
  mysql: 'a MySQL or MariaDB server',
  http: 'an HTTP server',
  tls: 'a TLS (https) server',
  ssh: 'an SSH server',
  other: 'another kind of server',
};

/**
 * The `wrong_engine` failure when `guess` is not `expected`, or undefined when it is. `other` is
 * let through: the driver's own error says more about a server the sniffer does not know.
 */
export function wrongEngine(
  guess: EngineGuess,
  expected: EngineKind,
  target: string,
  expectedName: string,
): PollerFailure | undefined {
  if (guess.engine === expected || guess.engine === 'other') return undefined;
  const said = guess.detail ? ` (${guess.detail})` : '';
  const hint =
    guess.engine === 'postgresql'
      ? ' Register it as a PostgreSQL service, or check the port.'
      : guess.engine === 'mysql'
        ? ' Register it as a MySQL service, or check the port.'
        : ' Check the port.';
  return failure(
    'wrong_engine',
    `${target} answers as ${ENGINE_NAMES[guess.engine]}${said}, not ${expectedName}.${hint}`,
  );
}

import { connect } from 'node:net';
import type { PollerFailure } from '@flightdeck/schemas';
import { failure, hostPort, networkFailure } from './failure';
import { classifyFirstBytes, type EngineGuess } from './sniff';

/**
 * Tells whether SQL Server listens on a port before the driver misreads another server: it sends a
 * TDS PRELOGIN message (MS-TDS 2.2.6.5) and reads the answer. SQL Server answers with a tabular
 * result packet (type 0x04) holding its PRELOGIN options; MySQL and SSH greet first whatever is sent,
 * HTTP servers answer with a status line, PostgreSQL closes the connection without a word (a TDS
 * header is not a startup packet length it accepts).
 */

/** How the server answered the ENCRYPTION option. */
export type TdsEncryption = 'off' | 'on' | 'not_supported' | 'required';

/** What a SQL Server's PRELOGIN answer says. */
export interface TdsPrelogin {
  engine: 'mssql';
  encryption: TdsEncryption;
  /** The VERSION option: major.minor.build.subbuild of the server. */
  version: string | null;
}

/** An answer that is not SQL Server's, or the connection closed without one. */
export type TdsProbe = TdsPrelogin | EngineGuess | { engine: 'closed' };

const PACKET_PRELOGIN = 0x12;
const PACKET_TABULAR_RESULT = 0x04;
const HEADER = 8;
const TOKEN_VERSION = 0x00;
const TOKEN_ENCRYPTION = 0x01;
const TOKEN_TERMINATOR = 0xff;
const ENCRYPTION: Record<number, TdsEncryption> = { 0: 'off', 1: 'on', 2: 'not_supported', 3: 'required' };

/**
 * A PRELOGIN message with the VERSION and ENCRYPTION options: ENCRYPT_ON when the client will ask
 * for TLS, ENCRYPT_OFF otherwise (the server then says whether it requires it).
 */
export function preloginPacket(encrypt: boolean): Buffer {
  // An option is its token, then the offset and length of its data in the payload (big-endian).
  const option = (token: number, offset: number, length: number) => [token, 0, offset, 0, length];
  // Two options and the terminator take 11 bytes; VERSION data (6 bytes, all 0 from a client) and
  // ENCRYPTION data (1 byte) follow.
  const options = [...option(TOKEN_VERSION, 11, 6), ...option(TOKEN_ENCRYPTION, 17, 1), TOKEN_TERMINATOR];
  const payload = Buffer.from([...options, 0, 0, 0, 0, 0, 0, encrypt ? 1 : 0]);
  const header = Buffer.from([PACKET_PRELOGIN, 0x01, 0, HEADER + payload.length, 0, 0, 1, 0]);
  return Buffer.concat([header, payload]);
}

/**
 * Reads a server's PRELOGIN answer (header included). Undefined while the packet is incomplete;
 * null when the bytes are not a TDS tabular result packet with valid options.
 */
export function parsePreloginResponse(buf: Buffer): TdsPrelogin | null | undefined {
  if (buf.length === 0) return undefined;
  if (buf[0] !== PACKET_TABULAR_RESULT) return null;
  if (buf.length < HEADER) return undefined;
  const length = buf.readUInt16BE(2);
  if (length < HEADER + 1 || length > 4096) return null;
  if (buf.length < length) return undefined;
  const payload = buf.subarray(HEADER, length);
  let encryption: TdsEncryption | undefined;
  let version: string | null = null;
  for (let at = 0; ; at += 5) {
    const token = payload[at];
    if (token === undefined) return null;
    if (token === TOKEN_TERMINATOR) break;
    if (at + 5 > payload.length) return null;
    const offset = payload.readUInt16BE(at + 1);
    const size = payload.readUInt16BE(at + 3);
    if (offset + size > payload.length) return null;
    if (token === TOKEN_ENCRYPTION && size >= 1) encryption = ENCRYPTION[payload[offset]!];
    if (token === TOKEN_VERSION && size >= 6) {
      version = [
        payload[offset],
        payload[offset + 1],
        payload.readUInt16BE(offset + 2),
        payload.readUInt16BE(offset + 4),
      ].join('.');
    }
  }
  return encryption ? { engine: 'mssql', encryption, version } : null;
}

/**
 * Sends a PRELOGIN to `host:port` and says what answered, within `timeoutMs`: SQL Server's options,
 * another kind of server, a connection closed without an answer, or a failure (refused, unknown
 * host, silence).
 */
export function probeTds(
  host: string,
  port: number,
  timeoutMs: number,
  encrypt: boolean,
): Promise<TdsProbe | PollerFailure> {
  const target = hostPort(host, port);
  const what = `SQL Server at ${target}`;
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let connected = false;
    const socket = connect({ host, port });
    const done = (result: TdsProbe | PollerFailure) => {
      clearTimeout(deadline);
      socket.destroy();
      resolve(result);
    };
    const settle = (complete: boolean): TdsProbe | undefined => {
      const tds = parsePreloginResponse(received);
      if (tds) return tds;
      if (tds === undefined && !complete) return undefined;
      if (received.length === 0) return complete ? { engine: 'closed' } : undefined;
      return classifyFirstBytes(received, complete) ?? (complete ? { engine: 'other' } : undefined);
    };
    const deadline = setTimeout(() => {
      const guess = received.length > 0 ? settle(true) : undefined;
      if (guess) return done(guess);
      done(
        failure(
          'timeout',
          connected
            ? `${target} accepted the connection but did not answer within ${timeoutMs} ms: check that SQL Server listens on this port and is not overloaded.`
            : `${what} did not respond within ${timeoutMs} ms. Check the host, the port and any firewall in between, then try again.`,
        ),
      );
    }, timeoutMs);
    socket.once('connect', () => {
      connected = true;
      socket.write(preloginPacket(encrypt));
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const guess = settle(false);
      if (guess) done(guess);
    });
    socket.once('end', () => done(settle(true) ?? { engine: 'closed' }));
    socket.once('error', (err) => {
      const guess = received.length > 0 ? settle(true) : undefined;
      if (guess) return done(guess);
      // A reset once connected is a server closing on what it could not read.
      if (connected) return done({ engine: 'closed' });
      done(
        networkFailure(err, what, host, timeoutMs) ??
          failure('connection_failed', `Failed to connect to ${what}: ${err.message}.`),
      );
    });
  });
}

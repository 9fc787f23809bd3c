import { connect } from 'node:net';
import type { PollerFailure } from '@flightdeck/schemas';
import { BSON } from 'mongodb';
import { failure, hostPort, networkFailure } from './failure';
import { classifyFirstBytes, type EngineGuess, sniffEngine } from './sniff';

/**
 * Tells whether a MongoDB server listens on a port before the driver is let near it. The driver
 * reads whatever a server sends as MongoDB messages: a MySQL greeting sends it into a loop that
 * holds the event loop, and another server's error is reported only as a closed connection.
 */

/** OP_MSG, the message of every MongoDB command since 3.6. */
export const OP_MSG = 2013;
/** OP_REPLY, the legacy reply a very old server might send. */
const OP_REPLY = 1;
/** A server that speaks first (MySQL, SSH, NATS) does so within this time of the connection. */
const GREETING_MS = 300;
/** MongoDB's largest message (48 MB): a header announcing more is not MongoDB's. */
const MAX_MESSAGE_BYTES = 48_000_000;
const HEADER_BYTES = 16;

/** An OP_MSG carrying `{hello: 1, $db: "admin"}`, which any server answers before authentication. */
export function helloMessage(requestId: number): Buffer {
  const body = BSON.serialize({ hello: 1, $db: 'admin' });
  const head = Buffer.alloc(HEADER_BYTES + 5);
  head.writeInt32LE(head.length + body.length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(0, 8);
  head.writeInt32LE(OP_MSG, 12);
  head.writeUInt32LE(0, 16); // flag bits
  head.writeUInt8(0, 20); // section kind 0: the body document
  return Buffer.concat([head, body]);
}

/**
 * Whether `buf` starts with a MongoDB reply to request `requestId`: a header of a plausible
 * length, answering that request, with a reply's op code. Undefined while the header is incomplete.
 */
export function isMongoReply(buf: Buffer, requestId: number): boolean | undefined {
  if (buf.length < HEADER_BYTES) return undefined;
  const length = buf.readInt32LE(0);
  const opCode = buf.readInt32LE(12);
  return (
    length >= HEADER_BYTES &&
    length <= MAX_MESSAGE_BYTES &&
    buf.readInt32LE(8) === requestId &&
    (opCode === OP_MSG || opCode === OP_REPLY)
  );
}

/** What answered: MongoDB, another kind of server, or a failure (refused, silent, closed). */
export type MongoProbe = { engine: 'mongodb' } | EngineGuess | PollerFailure;

/**
 * Connects to `host:port` in plain TCP, listens briefly for a server that speaks first, then sends a
 * `hello` and reads the answer. Settles within `timeoutMs`. A server that closes the connection on
 * the `hello` without a word is asked again the way PostgreSQL answers (which it does to nothing
 * else); a MongoDB server that requires TLS closes it too, and the failure says so.
 */
export function probeMongo(host: string, port: number, timeoutMs: number): Promise<MongoProbe> {
  const target = hostPort(host, port);
  const what = `MongoDB at ${target}`;
  const requestId = 1 + Math.floor(Math.random() * 0x7ffffffe);
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let connected = false;
    let sent = false;
    let settled = false;
    let greeting: NodeJS.Timeout | undefined;
    const socket = connect({ host, port });
    const done = (result: MongoProbe) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(greeting);
      socket.destroy();
      resolve(result);
    };
    const judge = (complete: boolean): MongoProbe | undefined => {
      if (sent) {
        const mongo = isMongoReply(received, requestId);
        if (mongo) return { engine: 'mongodb' };
        // The first bytes of a reply could pass for another server's greeting: wait for its header.
        if (mongo === undefined && !complete) return undefined;
      }
      return classifyFirstBytes(received, complete);
    };
    const deadline = setTimeout(() => {
      const guess = received.length > 0 ? judge(true) : undefined;
      done(
        guess ??
          failure(
            'timeout',
            connected
              ? `${target} accepted the connection but did not answer within ${timeoutMs} ms: check that MongoDB listens on this port and is not overloaded.`
              : `${what} did not respond within ${timeoutMs} ms. Check the host, the port and any firewall in between, then try again.`,
          ),
      );
    }, timeoutMs);
    socket.once('connect', () => {
      connected = true;
      greeting = setTimeout(
        () => {
          if (received.length > 0) return;
          sent = true;
          socket.write(helloMessage(requestId));
        },
        Math.min(GREETING_MS, timeoutMs / 3),
      );
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const guess = judge(false);
      if (guess) done(guess);
    });
    socket.once('end', () => {
      if (received.length > 0) return done(judge(true) ?? { engine: 'other' });
      if (!sent) {
        return done(
          failure(
            'connection_failed',
            `Failed to connect to ${what}: the server closed the connection without answering. Check the port and the service logs.`,
          ),
        );
      }
      // Silent on MongoDB's hello: a PostgreSQL server drops such a message without a word.
      clearTimeout(deadline);
      settled = true;
      socket.destroy();
      void sniffEngine(host, port, timeoutMs, 'MongoDB').then((guess) =>
        resolve(
          'engine' in guess && guess.engine === 'postgresql'
            ? guess
            : failure(
                'connection_failed',
                `${what} closed the connection on a plain-text hello: if the server requires TLS, turn TLS on for this target; otherwise check the port and the service logs.`,
              ),
        ),
      );
    });
    socket.once('error', (err) => {
      if (received.length > 0) return done(judge(true) ?? { engine: 'other' });
      done(
        networkFailure(err, what, host, timeoutMs) ??
          failure('connection_failed', `Failed to connect to ${what}: ${err.message}.`),
      );
    });
  });
}

import type { ConnectionTestResult, PollerFailure } from '@flightdeck/schemas';
import { failure, hostPort, isFailure } from './failure';
import { sniffEngine, wrongEngine } from './sniff';

/**
 * Another kind of server on the port of an engine whose driver cannot say so itself: the Neo4j
 * driver reads a PostgreSQL or MySQL answer as an unknown Bolt version or a closed connection,
 * the Cassandra driver just waits for an answer that never comes. The sniffer listens first
 * (servers that greet, like MySQL and SSH, are told at once), then sends PostgreSQL's SSLRequest;
 * the engine's own server ignores or refuses that separate connection. Undefined when the sniffer
 * cannot tell, or when it is the expected kind: the driver's own result stands then.
 */
export async function foreignEngine(
  host: string,
  port: number,
  timeoutMs: number,
  expectedName: string,
  tls: boolean,
): Promise<PollerFailure | undefined> {
  const target = hostPort(host, port);
  const guess = await sniffEngine(host, port, timeoutMs, expectedName, 300);
  if (isFailure(guess) || guess.engine === 'other') return undefined;
  if (guess.engine === 'tls') {
    return tls
      ? undefined
      : failure(
          'tls_error',
          `${target} answers with TLS: turn TLS on for this target, or check that ${expectedName} listens on this port.`,
        );
  }
  // Every kind the sniffer names is not the expected engine, which it has no kind for.
  return wrongEngine(guess, 'other', target, expectedName);
}

/**
 * A connection test whose driver check and port check run side by side: a port check that finds
 * another kind of server answers at once; otherwise the driver's result, unless it failed in a way
 * the port check explains (a protocol error, a silent wait), for which the port check's answer wins.
 */
export async function testWithEngineCheck(
  driverTest: Promise<ConnectionTestResult>,
  engineCheck: Promise<PollerFailure | undefined>,
): Promise<ConnectionTestResult> {
  type First = { found: PollerFailure } | { result: ConnectionTestResult };
  const fromDriver = driverTest.then((result): First => ({ result }));
  const first = await Promise.race<First>([
    fromDriver,
    engineCheck.then((found): First | Promise<First> => (found ? { found } : fromDriver)),
  ]);
  if ('found' in first) return first.found;
  const { result } = first;
  if (result.ok || ['auth_failed', 'not_found', 'bad_config'].includes(result.code)) return result;
  return (await engineCheck) ?? result;
}

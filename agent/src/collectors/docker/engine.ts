import { request } from 'node:http';

/** The Engine API version the agent speaks: Docker 20.10 and every later engine still answer it. */
export const DOCKER_API_VERSION = '1.41';

/** Where the Docker Engine listens by default on each platform. */
export function defaultDockerSocket(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? '//./pipe/docker_engine' : '/var/run/docker.sock';
}

/** An Engine API call that did not give a JSON document: an HTTP error, a time-out or a broken body. */
export class EngineError extends Error {
  constructor(
    message: string,
    /** The HTTP status when the engine answered, e.g. 404 for a container that is gone. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export interface EngineGetOptions {
  /** The unix socket, or on Windows the named pipe, of the engine. */
  socketPath: string;
  /** Path and query after the version prefix, e.g. `/containers/json?all=1`. */
  path: string;
  /** The whole call, from connecting to the last byte of the body. */
  timeoutMs: number;
  /** Largest body accepted (default 32 MiB: a list of a thousand containers is a few MiB). */
  maxBytes?: number;
  apiVersion?: string;
}

/**
 * GET one JSON document from the Docker Engine API over its socket with node:http (no client
 * library). Rejects with an {@link EngineError} on a status other than 200 (with the engine's
 * `message`), on a time-out, on a body over `maxBytes` and on a body that is not JSON.
 */
export function engineGet(options: EngineGetOptions): Promise<unknown> {
  const { socketPath, timeoutMs } = options;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const path = `/v${options.apiVersion ?? DOCKER_API_VERSION}${options.path}`;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: EngineError | undefined, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(value);
    };
    // One connection per call (`agent: false`): nothing stays open between runs.
    const req = request(
      {
        socketPath,
        path,
        method: 'GET',
        agent: false,
        headers: { host: 'docker', accept: 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes)
            finish(new EngineError(`GET ${path}: body over ${maxBytes} bytes`, res.statusCode));
          else chunks.push(chunk);
        });
        res.on('error', (err) => finish(new EngineError(`GET ${path}: ${err.message}`, res.statusCode)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            const what = status === 200 ? 'body is not JSON' : `HTTP ${status}`;
            finish(new EngineError(`GET ${path}: ${what}: ${text.slice(0, 120)}`, status));
            return;
          }
          if (status !== 200) {
            const message =
              body && typeof body === 'object' && 'message' in body
                ? String(body.message)
                : text.slice(0, 120);
            finish(new EngineError(`GET ${path}: HTTP ${status}: ${message}`, status));
            return;
          }
          finish(undefined, body);
        });
      },
    );
    const timer = setTimeout(
      () => finish(new EngineError(`GET ${path}: no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on('error', (err) => finish(new EngineError(`GET ${path}: ${err.message}`)));
    req.end();
  });
}

/**
 * Runs `task` over `items` with at most `limit` calls in flight, in the order of `items`; resolves
 * with every result once all have settled (a task is expected to catch its own errors).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

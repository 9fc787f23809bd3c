import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface RunningServer {
  /** The port listened on (the real one when 0 was asked for). */
  port: number;
  /** Stops accepting connections, lets requests in flight finish (at most `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

/** Listens on `port` (all interfaces unless `hostname` is given); resolves once listening. */
export function startServer(
  app: { fetch: Parameters<typeof serve>[0]['fetch'] },
  port: number,
  hostname?: string,
): Promise<RunningServer> {
  return new Promise((resolvePromise, reject) => {
    const server = serve(
      { fetch: app.fetch, port, ...(hostname ? { hostname } : {}) },
      (info: AddressInfo) => {
        server.off('error', reject);
        let closing: Promise<void> | undefined;
        resolvePromise({
          port: info.port,
          close(graceMs = 3_000) {
            closing ??= new Promise<void>((done, fail) => {
              const http = server as Server;
              // Long-lived responses (SSE) would hold close() forever: cut them after the grace time.
              const timer = setTimeout(() => http.closeAllConnections?.(), graceMs);
              http.close((err) => {
                clearTimeout(timer);
                if (err && (err as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') fail(err);
                else done();
              });
              http.closeIdleConnections?.();
            });
            return closing;
          },
        });
      },
    );
    server.once('error', reject);
  });
}
